// Prism's validating proxy (`prism proxy --errors`) in front of the reference server, as a child
// process on a loopback port: every request and response that passes through is checked against
// openapi.yaml, and a violation turns into Prism's own error answer, which the recorder counts.
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

export interface RunningProxy {
  url: string;
  /** What Prism printed: its log names every violation it found. */
  output(): string;
  close(): Promise<void>;
}

const host = '127.0.0.1';

export async function startPrismProxy(specPath: string, upstream: string): Promise<RunningProxy> {
  const port = await freePort();
  const args = [prismBin(), 'proxy', '--errors', '--host', host, '--port', String(port), specPath, upstream];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Prism is listening on')) resolve();
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('error', reject);
    child.once('exit', (code, signal) => reject(new Error(`prism proxy exited (${signal ?? code}) before listening:\n${output}`)));
  });
  return { url: `http://${host}:${port}`, output: () => output, close: () => stop(child) };
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
