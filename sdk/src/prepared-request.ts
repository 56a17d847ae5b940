// The client's own calls hand openapi-fetch this class as its `Request`: it keeps the URL, headers and
// serialized body as given, so a call builds no Request (nor stream, nor clone) before each attempt's
// fetch, and a retry re-sends the same string. Middleware reads and changes it like a Request.

export class PreparedRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  /** The body as serialized: a JSON string for every operation the client's methods call. */
  body: BodyInit | null;
  readonly signal: AbortSignal | null;
  private readonly init: RequestInit;

  constructor(url: string, init: RequestInit = {}) {
    this.url = url;
    this.init = init;
    this.method = init.method ?? 'GET';
    // openapi-fetch passes a Headers of its own; a record is copied.
    this.headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
    this.body = init.body ?? null;
    this.signal = init.signal ?? null;
  }

  /** The body as text, as Request.text() would read it. */
  async text(): Promise<string> {
    if (this.body === null) return '';
    return typeof this.body === 'string' ? this.body : new Response(this.body).text();
  }

  /** The init of one attempt's fetch, under that attempt's signal. */
  attemptInit(signal: AbortSignal): RequestInit {
    return { ...this.init, headers: this.headers, body: this.body, signal };
  }

  /** A real Request, for a fetch of the caller's own. */
  toRequest(signal: AbortSignal): Request {
    return new Request(this.url, this.attemptInit(signal));
  }
}
