// The embedded Cosmos DB emulator (@vercel/cosmosdb-server) as the server runs it when no account is
// configured, with two fixes so that a newcomer's `npm start` stays fast as data grows:
// - its query compiler (@zeit/cosmosdb-query) gathers documents with `reduce(($, c) => [...$, c])`,
//   copying the array once per document (quadratic: seconds per query at a few thousand items); the
//   same expression as a linear filter + map is patched in;
// - it answers `Connection: close` unless asked for keep-alive, so every store call opened a socket.

import type { Server } from 'node:http';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const quadratic = /\$c\.reduce\(\(\$, (\w+)\) => typeof \1 !== "undefined" \? \[\.\.\.\$, \{\s*\1: \1\s*\}\] : \$, \[\]\)/g;
let patched = false;

/** Makes the emulator's compiled queries linear in the number of documents (once per process). */
export function patchQueryCompiler(): void {
  if (patched) return;
  const serverPath = require.resolve('@vercel/cosmosdb-server');
  const createQuery = createRequire(serverPath)('@zeit/cosmosdb-query').default as (sql: string) => object;
  const prototype = Object.getPrototypeOf(createQuery('SELECT * FROM c'));
  const compile = Object.getOwnPropertyDescriptor(prototype, 'code')!.get!;
  Object.defineProperty(prototype, 'code', {
    get(this: object) {
      return (compile.call(this) as string).replace(
        quadratic,
        (_, c: string) => `$c.filter((${c}) => typeof ${c} !== "undefined").map((${c}) => ({ ${c}: ${c} }))`,
      );
    },
  });
  // A new emulator version that compiles differently must be looked at again, not silently left quadratic.
  if ((createQuery('SELECT * FROM c') as { code: string }).code.includes('[...$')) {
    throw new Error('the Cosmos emulator no longer generates the expected query code; update store/embedded-cosmos.ts');
  }
  patched = true;
}

/** An emulator HTTP server, patched and keeping connections alive; the caller listens and closes it. */
export function createEmbeddedCosmos(): Server {
  patchQueryCompiler();
  const { createHttpServer } = require('@vercel/cosmosdb-server') as typeof import('@vercel/cosmosdb-server');
  return createHttpServer({ keepAlive: true });
}
