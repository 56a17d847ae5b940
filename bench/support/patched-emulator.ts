// The embedded Cosmos emulator, as the server runs it (cosmos/embedded-cosmos.ts, with its linear query
// patch), in a child process of its own so that a benchmark measures the server, not the emulator's
// share of the same event loop. Each page still scans and sorts the whole container, so an export
// takes minutes here where Cosmos DB serves pages from its index.
import { type ChildProcess, fork } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createEmbeddedCosmos } from '../../server/src/cosmos/embedded-cosmos.js';

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
  const emulator = createEmbeddedCosmos();
  await new Promise<void>((resolve) => emulator.listen(0, '127.0.0.1', resolve));
  process.send!({ port: (emulator.address() as AddressInfo).port });
  // Ends with the benchmark: the parent kills this process, or its IPC channel closes.
  process.on('disconnect', () => process.exit(0));
}
