// A request handler that passes each request on to a local server (the embedded Cosmos DB emulator,
// or a port of this machine, such as Azurite's) and its answer back: the part of a test's front (TLS,
// throttling, holding) that does nothing of its own.
import { type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export function forwardTo(target: Server | number): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const port = typeof target === 'number' ? target : (target.address() as AddressInfo).port;
    const upstream = request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    // A request its client gave up on (a held one let through late) may fail upstream: nobody waits for it.
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  };
}
