// The published package, as a new project gets it: `npm pack`, unpacked into a fresh project's
// node_modules with its declared dependencies taken from this workspace (no registry in tests),
// then used the three ways the README shows: import (node:test, vitest), require (jest), the CLI.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const project = mkdtempSync(join(tmpdir(), 'gc-mock-project-'));
const installed = join(project, 'node_modules', '@groundcheck', 'mock');
let manifest: { bin: Record<string, string>; dependencies: Record<string, string> };
let files: string[];

after(() => rmSync(project, { recursive: true, force: true }));

before(async () => {
  // The build ran before the tests (scripts/run-tests.mjs); packing again must not rebuild under the other test file.
  const { stdout } = await run('npm', ['pack', '-w', '@groundcheck/mock', '--pack-destination', project, '--ignore-scripts', '--json'], {
    cwd: repoRoot,
  });
  const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
  files = packed!.files.map((f) => f.path).sort();
  mkdirSync(installed, { recursive: true });
  await run('tar', ['-xzf', join(project, packed!.filename), '-C', installed, '--strip-components=1']);
  manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
  // Only the declared dependencies are visible to the unpacked package: a missing one fails here.
  for (const name of Object.keys(manifest.dependencies)) {
    const link = join(project, 'node_modules', name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(realpathSync(join(repoRoot, 'node_modules', name)), link);
  }
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'customer-project', private: true, type: 'module' }));
});

test('the tarball holds the built library, the command, the types and the bundled contract, and nothing else', () => {
  for (const expected of [
    'README.md',
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
    files.filter((f) => !f.startsWith('dist/') && f !== 'README.md' && f !== 'package.json'),
    ['bin/groundcheck-mock.js'],
  );
  assert.equal(readFileSync(join(installed, 'dist/openapi.yaml'), 'utf8'), readFileSync(join(repoRoot, 'openapi.yaml'), 'utf8'));
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
  symlinkSync(realpathSync(join(repoRoot, 'node_modules', '@types')), join(project, 'node_modules', '@types'));
  const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = await run(process.execPath, [tsc, '-p', project]).catch((error: { stdout: string }) => error);
  assert.equal(result.stdout, '');
});

test('the groundcheck-mock command listens on the port it is given', async () => {
  const bin = join(installed, manifest.bin['groundcheck-mock']!);
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as AddressInfo;
      probe.close(() => resolve(free));
    });
  });
  const child = spawn(process.execPath, [bin, '--port', String(port)], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    await new Promise<void>((resolve, reject) => {
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk;
        if (output.includes(`Groundcheck mock listening on http://127.0.0.1:${port}`)) resolve();
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
    });
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/system-card`, {
      method: 'POST',
      headers: { authorization: 'Bearer test' },
    });
    assert.equal(response.status, 200);
    assert.equal((await response.json()).schema_version, '1.0');
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
});
