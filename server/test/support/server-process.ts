// The reference server in a process of its own, started from server/src/main.ts as `npm start`
// starts it: for what only separate processes show (a shared store, telemetry export, the image).
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { type AddressInfo, createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const serverMain = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

/** A port free on 127.0.0.1 now. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Resolves once `url`'s /readyz answers 200; rejects when the process exits first or after a minute. */
export async function untilReady(url: string, child: ChildProcess, why = 'the server'): Promise<void> {
  for (let i = 0; i < 600 && child.exitCode === null; i++) {
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${why} did not become ready (exit ${child.exitCode})`);
}

/**
 * Starts `command` (by default the server from source under tsx) on a free loopback port with `env`
 * on top of PATH, HOST and PORT, and waits until it is ready.
 */
export async function startServerProcess(
  env: Record<string, string | undefined>,
  options: { command?: string[]; cwd?: string; stdio?: SpawnOptions['stdio'] } = {},
): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const [program, ...args] = options.command ?? [process.execPath, '--import', 'tsx', serverMain];
  const child = spawn(program!, args, {
    cwd: options.cwd,
    env: { PATH: process.env.PATH, ...env, HOST: '127.0.0.1', PORT: String(port) },
    stdio: options.stdio ?? ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await untilReady(url, child);
  return { url, child };
}
