// A scriptable HTTP server on 127.0.0.1 that records every request, for tests of what the SDK sends
// and how it reacts to what comes back.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Recorded {
  method: string;
  /** Path and query, as sent. */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body parsed as JSON, or undefined when it is empty or not JSON. */
  json: any;
  at: number;
}

export type Respond = (request: Recorded, res: ServerResponse, index: number) => void | Promise<void>;

export interface Loopback {
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

export async function startLoopback(respond: Respond): Promise<Loopback> {
  const requests: Recorded[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = body ? JSON.parse(body) : undefined;
      } catch {
        json = undefined;
      }
      const recorded: Recorded = { method: req.method!, path: req.url!, headers: req.headers, body, json, at: Date.now() };
      requests.push(recorded);
      new Promise<void>((resolve) => resolve(respond(recorded, res, requests.length - 1))).catch((error: unknown) => {
        res.statusCode = 599;
        res.end(String(error));
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

let requestCounter = 0;

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': status >= 400 ? 'application/problem+json' : 'application/json',
    'x-request-id': `req_loopback${String((requestCounter += 1)).padStart(12, '0')}`,
    'ratelimit-limit': '120',
    'ratelimit-remaining': '117',
    'ratelimit-reset': '42',
    ...headers,
  });
  res.end(JSON.stringify(body));
}

export function problem(res: ServerResponse, status: number, code: string, headers: Record<string, string> = {}): void {
  json(
    res,
    status,
    {
      type: `https://groundcheck.dev/problems/${code}`,
      title: code,
      status,
      detail: `Answered ${status} ${code}.`,
      code,
      request_id: `req_problem_${code}`,
    },
    headers,
  );
}

/** Drops the connection without answering, as a crashed proxy or a network failure would. */
export const drop: Respond = (_request, res) => {
  res.socket?.destroy();
};
