// A Response whose body the client has already read (inside the call's timeout). It keeps the bytes
// and answers text() and json() from them, so a call builds no second body stream to parse.

export class BufferedResponse extends Response {
  private readonly content: Uint8Array<ArrayBuffer> | null;
  private used = false;
  private stream: ReadableStream<Uint8Array<ArrayBuffer>> | null | undefined;

  constructor(content: ArrayBuffer | null, init: ResponseInit) {
    super(null, init);
    this.content = content === null ? null : new Uint8Array(content);
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    if (this.stream === undefined) this.stream = this.content === null ? null : this.asResponse().body;
    return this.stream;
  }

  override get bodyUsed(): boolean {
    return this.used;
  }

  override async text(): Promise<string> {
    return new TextDecoder().decode(this.take());
  }

  override async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  override async arrayBuffer(): Promise<ArrayBuffer> {
    return this.asResponse().arrayBuffer();
  }

  override async blob(): Promise<Blob> {
    return this.asResponse().blob();
  }

  override async formData(): Promise<FormData> {
    return this.asResponse().formData();
  }

  override async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return new Uint8Array(await this.arrayBuffer());
  }

  override clone(): Response {
    if (this.used) throw new TypeError('Response.clone: Body has already been consumed.');
    return new BufferedResponse(this.content?.slice().buffer ?? null, this);
  }

  /** The bytes, once: a body can be read only once, as a Response's. */
  private take(): Uint8Array<ArrayBuffer> {
    if (this.content === null) return new Uint8Array(0);
    if (this.used) throw new TypeError('Body is unusable: Body has already been read');
    this.used = true;
    return this.content;
  }

  /** A plain Response with the same body, for the readers that are rarely called. */
  private asResponse(): Response {
    return new Response(this.take(), { status: this.status, statusText: this.statusText, headers: this.headers });
  }
}
