// A real HTTP listener on 127.0.0.1 that records every connection and request it receives.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface LoopbackServer {
  port: number;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  connections: number;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

type Handler = (request: IncomingMessage & { body: string }, response: ServerResponse) => void;

export async function startLoopbackServer(handler: Handler = (_request, response) => response.end('ok')): Promise<LoopbackServer> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      handler(Object.assign(request, { body }), response);
    });
  });
  const state = { connections: 0 };
  server.on('connection', () => state.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    get connections() {
      return state.connections;
    },
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
