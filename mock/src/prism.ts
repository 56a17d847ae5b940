// Prism (@stoplight/prism-cli) as a child process on a loopback port of its own, mocking the
// bundled contract. Resolves once Prism says it is listening; a Prism that exits first rejects
// with what it printed.
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

export interface PrismOptions {
  specPath: string;
  dynamic: boolean;
  /** Seed of the generated data with `dynamic`, for repeatable runs. */
  seed?: string;
  /** Prism's own log goes to this stream (the CLI shows it); otherwise it is kept for errors only. */
  log?: { write(text: string): unknown };
}

export interface RunningPrism {
  host: string;
  port: number;
  /** The last megabyte Prism printed, when no `log` takes it (a proxy's log names every violation). */
  output(): string;
  stop(): Promise<void>;
}

const host = '127.0.0.1';
const keptOutput = 1 << 20;

export async function startPrism(options: PrismOptions): Promise<RunningPrism> {
  const args = ['mock', options.specPath];
  if (options.dynamic) args.push('--dynamic');
  if (options.seed !== undefined) args.push('--seed', options.seed);
  return runPrism(args, options.log);
}

/** Prism's CLI with `args` (its command, spec and options) on a free loopback port. */
export async function runPrism(args: string[], log?: PrismOptions['log']): Promise<RunningPrism> {
  const port = await freePort();
  const child = spawn(process.execPath, [prismBin(), ...args, '--host', host, '--port', String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    let listening = false;
    const read = (chunk: Buffer) => {
      const text = chunk.toString();
      // Until it listens, Prism lists every route at its own address, which is internal: a reader would
      // call the wrong one. The mock says its own address once Prism listens; what follows is shown.
      if (listening) log?.write(text);
      if (!log) output = (output + text).slice(-keptOutput);
      if (!listening && text.includes('Prism is listening on')) {
        listening = true;
        resolve();
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('error', reject);
    child.once('exit', (code, signal) => reject(new Error(`Prism exited (${signal ?? code}) before listening:\n${output.slice(-8000)}`)));
  });
  return { host, port, output: () => output, stop: () => stop(child) };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

function prismBin(): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('@stoplight/prism-cli/package.json');
  const { bin } = require(manifest) as { bin: { prism: string } };
  return join(dirname(manifest), bin.prism);
}

/** A loopback port that was free a moment ago. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
