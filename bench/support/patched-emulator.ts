// The in-memory Cosmos emulator in a child process, patched for large containers. Its query
// compiler (@zeit/cosmosdb-query) gathers the documents with `reduce(($, c) => [...$, { c }], [])`,
// copying the array once per document: quadratic, hours per page at 200 000 items. The same
// expression as a linear filter + map is patched in here, for benchmarks only. Each page still scans
// and sorts the whole container, so an export takes minutes here where Cosmos DB serves pages from
// its index.
import { type ChildProcess, fork } from 'node:child_process';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

const emulatorRole = 'GROUNDCHECK_BENCH_EMULATOR';

if (process.env[emulatorRole]) await runEmulator();

/** Forks this module as the emulator; kill `child` when done. */
export async function startPatchedEmulator(): Promise<{ endpoint: string; child: ChildProcess }> {
  const child = fork(fileURLToPath(import.meta.url), [], {
    env: { ...process.env, [emulatorRole]: '1' },
    execArgv: ['--import', 'tsx'],
    stdio: 'inherit',
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message: { port: number }) => resolve(message.port));
    child.once('exit', (code) => reject(new Error(`the emulator exited with ${code}`)));
  });
  return { endpoint: `http://127.0.0.1:${port}`, child };
}

async function runEmulator(): Promise<void> {
  const require = createRequire(import.meta.url);
  const serverPath = require.resolve('@vercel/cosmosdb-server');
  const createQuery = createRequire(serverPath)('@zeit/cosmosdb-query').default as (sql: string) => object;
  const prototype = Object.getPrototypeOf(createQuery('SELECT * FROM c'));
  const compile = Object.getOwnPropertyDescriptor(prototype, 'code')!.get!;
  const quadratic = /\$c\.reduce\(\(\$, (\w+)\) => typeof \1 !== "undefined" \? \[\.\.\.\$, \{\s*\1: \1\s*\}\] : \$, \[\]\)/g;
  Object.defineProperty(prototype, 'code', {
    get(this: object) {
      return (compile.call(this) as string).replace(
        quadratic,
        (_, c: string) => `$c.filter((${c}) => typeof ${c} !== "undefined").map((${c}) => ({ ${c}: ${c} }))`,
      );
    },
  });
  if ((createQuery('SELECT * FROM c') as { code: string }).code.includes('[...$')) {
    throw new Error('the emulator no longer generates the expected query code; update the patch in bench/support/patched-emulator.ts');
  }
  const { createHttpServer } = require(serverPath) as typeof import('@vercel/cosmosdb-server');
  const emulator = createHttpServer();
  await new Promise<void>((resolve) => emulator.listen(0, '127.0.0.1', resolve));
  process.send!({ port: (emulator.address() as AddressInfo).port });
  // Ends with the benchmark: the parent kills this process, or its IPC channel closes.
  process.on('disconnect', () => process.exit(0));
}
