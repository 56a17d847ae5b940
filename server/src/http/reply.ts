/** A response held whole: a JSON body or a problem, ready to send or to store for an idempotent replay. */
export interface BufferedReply {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export function jsonReply(status: number, body: unknown, contentType = 'application/json; charset=utf-8'): BufferedReply {
  return { status, headers: { 'content-type': contentType }, body: Buffer.from(JSON.stringify(body)) };
}
