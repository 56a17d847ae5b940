// The published package, as a new project gets it: `npm pack`, installed into a fresh project with
// `npm ci --offline` (test/support/offline-install.ts: the registry is not reached in tests), then
// used the four ways the README shows: import (node:test, vitest), require (jest), `npx`, the CLI.
import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { installPackedPackage } from '../../test/support/offline-install.js';
import { arethetypeswrong, publint, publishDryRun } from '../../test/support/publish-checks.js';

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const project = mkdtempSync(join(tmpdir(), 'gc-mock-project-'));
const installed = join(project, 'node_modules', '@groundcheck', 'mock');
let manifest: { bin: Record<string, string>; dependencies: Record<string, string> };
let files: string[];
let tarball: string;

after(() => rmSync(project, { recursive: true, force: true }));

before(async () => {
  // The build ran before the tests (scripts/run-tests.mjs); packing again must not rebuild under the other test file.
  const { stdout } = await run('npm', ['pack', '-w', '@groundcheck/mock', '--pack-destination', project, '--ignore-scripts', '--json'], {
    cwd: repoRoot,
  });
  const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
  files = packed!.files.map((f) => f.path).sort();
  tarball = join(project, packed!.filename);
  installPackedPackage(project, tarball, 'mock');
  manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
  // The project's own package.json names only the tarball; its code is ESM.
  const own = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ ...own, type: 'module' }));
});

test('the tarball holds the built library, the command, the types and the bundled contract, and nothing else', () => {
  for (const expected of [
    'README.md',
    'LICENSE',
    'CHANGELOG.md',
    'package.json',
    'dist/openapi.yaml',
    'dist/index.js',
    'dist/index.cjs',
    'dist/index.d.ts',
    'dist/index.d.cts',
  ]) {
    assert.ok(files.includes(expected), `${expected} in ${files.join(', ')}`);
  }
  assert.ok(files.includes(manifest.bin['groundcheck-mock']!.replace(/^\.\//, '')), 'the bin is packed');
  assert.deepEqual(
    files.filter((f) => !f.startsWith('dist/') && !['README.md', 'LICENSE', 'CHANGELOG.md', 'package.json'].includes(f)),
    ['bin/groundcheck-mock.js'],
  );
  assert.equal(readFileSync(join(installed, 'dist/openapi.yaml'), 'utf8'), readFileSync(join(repoRoot, 'contract/openapi.yaml'), 'utf8'));
});

test('publint, arethetypeswrong and npm publish --dry-run accept the tarball', async () => {
  assert.match(publint(tarball), /All good!/);
  // ./openapi.yaml is the bundled contract, a data file rather than a module.
  assert.match(arethetypeswrong(tarball, ['./openapi.yaml']), /No problems found/);
  const published = await publishDryRun(tarball);
  assert.equal(published['@groundcheck/mock']?.id, '@groundcheck/mock@0.1.0');
});

test('a node:test suite of the new project imports startMock and calls the mock', async () => {
  writeFileSync(
    join(project, 'esm.test.js'),
    `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startMock } from '@groundcheck/mock';

test('validate against the mock', async () => {
  const mock = await startMock({ port: 0 });
  try {
    const response = await fetch(mock.url + '/api/v1/validate', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer test' },
      body: JSON.stringify({ mode: 'validate', question: 'Leave?', chatbot_response: '30 days.', inline_text: '25 days.' }),
    });
    assert.equal(response.status, 200);
    assert.equal((await response.json()).mode, 'validate');
  } finally {
    await mock.close();
  }
});
`,
  );
  // A test runner started from a test reports to its parent unless told it is on its own.
  const { NODE_TEST_CONTEXT: _nested, ...env } = process.env;
  const { stdout } = await run(process.execPath, ['--test', 'esm.test.js'], { cwd: project, env });
  assert.match(stdout, /# pass 1/);
});

test('CommonJS (jest) requires it, and TypeScript finds its types', async () => {
  writeFileSync(
    join(project, 'cjs.cjs'),
    `const { startMock, specPath } = require('@groundcheck/mock');\nconsole.log(typeof startMock, specPath);\n`,
  );
  const { stdout } = await run(process.execPath, ['cjs.cjs'], { cwd: project });
  assert.match(stdout, /^function .*node_modules\/@groundcheck\/mock\/dist\/openapi\.yaml\n$/);
  writeFileSync(
    join(project, 'typed.ts'),
    `import { startMock, type RunningMock } from '@groundcheck/mock';\nexport const started: Promise<RunningMock> = startMock({ port: 0, dynamic: true });\n`,
  );
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        types: [],
        skipLibCheck: false,
      },
      files: ['typed.ts'],
    }),
  );
  const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = await run(process.execPath, [tsc, '-p', project]).catch((error: { stdout: string }) => error);
  assert.equal(result.stdout, '');
});

test('`npx @groundcheck/mock` in the new project serves on the port it is given', async () => {
  await assertServes(project);
});

test('`npx @groundcheck/mock` in this repository after npm ci serves on the port it is given', async () => {
  await assertServes(repoRoot);
});

/** Runs the README's command from `cwd` (npx finds the installed package; --offline: no registry). */
async function assertServes(cwd: string) {
  const port = await freePort();
  // Its own process group: npx runs the command through a shell, and the whole group is stopped.
  const child = spawn('npx', ['--offline', '@groundcheck/mock', '--port', String(port)], {
    cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  try {
    const printed = await new Promise<string>((resolve, reject) => {
      let output = '';
      const collect = (chunk: Buffer) => {
        output += chunk;
        if (output.includes(`Groundcheck mock listening on http://127.0.0.1:${port}`)) resolve(output);
      };
      child.stdout!.on('data', collect);
      child.stderr!.on('data', collect);
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
    });
    // One address is printed, the one to call: not the internal one of Prism behind it.
    assert.deepEqual(
      [...printed.matchAll(/https?:\/\/[\w.]+:\d+/g)].map((match) => match[0]),
      [`http://127.0.0.1:${port}`],
    );
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/system-card`, {
      method: 'POST',
      headers: { authorization: 'Bearer test' },
    });
    assert.equal(response.status, 200);
    assert.equal((await response.json()).schema_version, '1.0');
  } finally {
    await stopGroup(child);
  }
}

async function stopGroup(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
