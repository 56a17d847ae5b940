// A request handler that passes each request on to a local server (the embedded Cosmos DB emulator) and
// its answer back: the part of a test's front (TLS, throttling) that does nothing of its own.
import { type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export function forwardTo(target: Server): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const upstream = request(
      { host: '127.0.0.1', port: (target.address() as AddressInfo).port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  };
}
