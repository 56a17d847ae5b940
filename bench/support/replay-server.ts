// A loopback node:http server that answers every request with one recorded reply (status, headers,
// body) after reading the request's body, and keeps the last request it got: the floor a client's
// own cost is measured against, with no server work to dilute it.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface ReplayServer {
  url: string;
  /** The most recent request, headers and body as received. */
  last(): ReceivedRequest | undefined;
  close(): Promise<void>;
}

/** Headers that belong to one connection or one moment, left to node:http to write. */
const perConnection = new Set(['connection', 'keep-alive', 'date', 'transfer-encoding', 'content-length']);

/** The reply as `response` carried it, its body read, for replaying. */
export async function recordReply(response: Response): Promise<RecordedReply> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!perConnection.has(name)) headers[name] = value;
  });
  return { status: response.status, headers, body: await response.text() };
}

export async function startReplayServer(reply: RecordedReply): Promise<ReplayServer> {
  const body = Buffer.from(reply.body);
  const headers = { ...reply.headers, 'content-length': String(body.length) };
  let last: ReceivedRequest | undefined;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      last = { method: req.method!, path: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      res.writeHead(reply.status, headers).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    last: () => last,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
