// The embedded Cosmos DB emulator (@vercel/cosmosdb-server) as the server runs it when no account is
// configured, with fixes so that a newcomer's `npm start` stays fast as data grows and behaves as
// Cosmos DB does where the server relies on it:
// - queries linear in the number of documents (emulator/linear-queries.ts);
// - transactional batches that apply all or nothing and take Patch operations (emulator/atomic-batch.ts);
// - connections kept alive: it answers `Connection: close` unless asked, so every store call opened a socket;
// - no query plans: `@azure/cosmos` asks for one alongside the first page of every query (and uses
//   it only when Cosmos DB refuses the query, which the emulator never does in that way), and the
//   emulator ran the request as the query itself, so each query ran twice. Plans are refused
//   without running anything, and a query that ever needed one would fail loudly.

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { installAtomicBatch } from './emulator/atomic-batch.js';
import { patchQueryCompiler } from './emulator/linear-queries.js';

const require = createRequire(import.meta.url);
let patched = false;

/** An emulator HTTP server, patched and keeping connections alive; the caller listens and closes it. */
export function createEmbeddedCosmos(): Server {
  if (!patched) {
    const serverPath = require.resolve('@vercel/cosmosdb-server');
    patchQueryCompiler(serverPath);
    installAtomicBatch(serverPath);
    patched = true;
  }
  const { createHttpServer } = require('@vercel/cosmosdb-server') as typeof import('@vercel/cosmosdb-server');
  const server = createHttpServer({ keepAlive: true });
  const [handle] = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (String(req.headers['x-ms-cosmos-is-query-plan-request']).toLowerCase() !== 'true') return handle!(req, res);
    req.resume();
    res.writeHead(400, { 'content-type': 'application/json', connection: 'keep-alive' });
    res.end(JSON.stringify({ code: 'BadRequest', message: 'the embedded emulator serves no query plans' }));
  });
  return server;
}
