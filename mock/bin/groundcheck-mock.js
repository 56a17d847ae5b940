#!/usr/bin/env node
// The groundcheck-mock command. A committed file rather than dist/cli.js itself, so that npm links
// the command whenever the package is installed: in this repository `npm ci` runs before anything is
// built, and a command whose file is missing at install is never linked. Here, the package is built
// on first use; a published package always carries dist/.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  const packageDir = fileURLToPath(new URL('..', import.meta.url));
  if (!existsSync(new URL('../src/cli.ts', import.meta.url))) {
    console.error('groundcheck-mock: this installation lacks dist/cli.js; reinstall @groundcheck/mock.');
    process.exit(1);
  }
  console.error('groundcheck-mock: building the package once (npm run build)…');
  const built = spawnSync('npm', ['run', 'build'], { cwd: packageDir, stdio: ['ignore', 'ignore', 'inherit'] });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
await import(cli.href);
