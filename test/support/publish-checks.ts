// What a release would run on a packed tarball before publishing it: publint, arethetypeswrong and
// `npm publish --dry-run`. The dry run asks the registry whether the version exists; here a loopback
// stand-in answers that it does not, so no test reaches the real registry.
import { execFile, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const bin = (name: string) => fileURLToPath(new URL(`../../node_modules/.bin/${name}`, import.meta.url));

function run(command: string, args: string[], cwd?: string, env: Record<string, string> = {}): string {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    timeout: 180_000,
    env: { ...process.env, npm_config_update_notifier: 'false', ...env },
  });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

/** publint's report, strict (warnings count). */
export function publint(tarball: string): string {
  return run(bin('publint'), ['run', tarball, '--strict']);
}

/** arethetypeswrong's report for every entry point but `dataFiles` (exports that are not modules). */
export function arethetypeswrong(tarball: string, dataFiles: string[] = []): string {
  const excluded = dataFiles.length > 0 ? ['--exclude-entrypoints', ...dataFiles] : [];
  return run(bin('attw'), [tarball, '--no-definitely-typed', '--format', 'ascii', '--no-color', '--no-emoji', ...excluded]);
}

/** The manifest `npm publish --dry-run` would publish, keyed by package name as npm prints it. */
export async function publishDryRun(tarball: string): Promise<Record<string, { id: string; files: { path: string }[] }>> {
  const registry = createServer((_req, res) => {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
  });
  await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = registry.address() as AddressInfo;
    // An async child, so the stand-in registry in this process can answer it.
    const { stdout } = await promisify(execFile)(
      'npm',
      ['publish', tarball, '--dry-run', '--json', '--ignore-scripts', '--registry', `http://127.0.0.1:${port}/`],
      { cwd: join(tarball, '..'), timeout: 180_000, env: { ...process.env, npm_config_update_notifier: 'false' } },
    );
    return JSON.parse(stdout);
  } finally {
    registry.close();
  }
}
