// README.md as a reader uses it on a fresh clone: every ```sh block runs with bash against the reference
// server started as `npm start` starts it (and against the mock it starts itself), the ```ts snippet is
// the example file it names, run from the repository root, and each prints what the README says it does.
// Only the ports change.
import assert from 'node:assert/strict';
import { type ChildProcess, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { freePort, startServerProcess } from '../../server/test/support/server-process.js';
import { repoRoot } from '../support/spec.js';
import { type CodeBlock, codeBlocks, runShell, type ShellRun } from './readme-blocks.js';

const blocks = codeBlocks(readFileSync(join(repoRoot, 'README.md'), 'utf8'));

/** Blocks that are not run, each with the reason. */
const notRun: Record<string, string> = {
  'Quick start (sh 1)': '`npm ci`, `npm start` and `npm test`: CI runs these itself, and this test starts the server as `npm start` does',
};

/** A block as run, for checking what it printed and the files it wrote (in `dir`). */
interface BlockRun extends ShellRun {
  dir: string;
}

/** What each block that runs promises, checked on what it printed and wrote. */
const promises: Record<string, (run: BlockRun) => void | Promise<void>> = {
  'First calls (sh 1)': ({ stdout }) => {
    assert.match(stdout, /"principal":\{"type":"user","id":"usr_\w+","email":"uma\.user@demo\.example"/);
    assert.match(stdout, /"principal":\{"type":"api_key","id":"key_DemoUser"/);
  },
  'API reference and mock (sh 1)': ({ stdout }) => {
    // The mock's own log shares stdout with curl's answer.
    assert.match(stdout, /\{"validation_id":"val_\w+","mode":"generate"/);
  },
  'A first validation (sh 1)': ({ stdout }) => {
    const answer = JSON.parse(stdout);
    assert.equal(answer.severity, 'high');
    assert.deepEqual(
      answer.claims.map((claim: any) => [claim.text, claim.status]),
      [['Full-time employees get 30 days of paid leave per year', 'contradicted']],
    );
    assert.match(answer.claims[0].evidence[0].text, /25 days/);
  },
  'A first validation (ts 1)': ({ stdout }) => {
    assert.deepEqual(stdout.trimEnd().split('\n'), printedAsCommented(blockNamed('A first validation (ts 1)').code));
  },
  'Reviewing validations (sh 1)': async ({ stdout, dir }) => {
    assert.match(stdout, /"review":\{"required":true,"state":"approved","history":\[\{"action":"approve"/);
    assert.match(stdout, /"note":"Checked against the 2026 handbook\."/);
    assert.match(stdout, /"customer_id":"demo","generated_at":"[^"]+","validations":\{"this_month":\d+,"total":[1-9]/);
    assert.match(stdout, /"date_from":"\d{4}-\d{2}-01"/);
    assert.match(await readFile(join(dir, 'analytics.csv'), 'utf8'), /^date,validations,with_issues,/);
  },
  'Managing the account (sh 1)': async ({ stdout, dir }) => {
    assert.match(stdout, /"email":"avery\.admin@demo\.example"/);
    const zip = await readFile(join(dir, 'account-export.zip'));
    assert.equal(zip.subarray(0, 2).toString('latin1'), 'PK');
    assert.ok(zip.includes('manifest.json'), 'the export holds manifest.json');
  },
  'Managing the account (sh 2)': async ({ stdout }) => {
    const { customer_id, deleted } = JSON.parse(stdout);
    assert.deepEqual({ customer_id, deleted }, { customer_id: 'demo', deleted: true });
    // Closed at once: the admin's password no longer signs in.
    const login = await fetch(`${serverUrl}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'avery.admin@demo.example', password: 'demo-admin-password', customer_id: 'demo' }),
    });
    assert.equal(login.status, 401);
  },
};

const runnable = blocks.filter((block) => (block.lang === 'sh' || block.lang === 'ts') && !(block.name in notRun));

function blockNamed(name: string): CodeBlock {
  return blocks.find((block) => block.name === name)!;
}

/** The `// ` lines that end a snippet: what it prints. */
function printedAsCommented(code: string): string[] {
  const lines = code.trimEnd().split('\n');
  let first = lines.length;
  while (first > 0 && lines[first - 1]!.startsWith('// ')) first--;
  return lines.slice(first).map((line) => line.slice(3));
}

let server: { url: string; child: ChildProcess } | undefined;
let serverUrl = '';
let mockPort = 0;
let dir = '';
let support = '';

before(async () => {
  // `npm start` is the builds (the server's, the SDK's and the console's), then the server's start
  // script. Both run as written, the latter without npm in between: npm does not pass SIGTERM on, and
  // the server would outlive the test.
  const rootScripts = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).scripts;
  const serverScripts = JSON.parse(readFileSync(join(repoRoot, 'server/package.json'), 'utf8')).scripts;
  const steps: string[] = rootScripts.start.split(' && ');
  const start = steps.pop();
  const build = steps.join(' && ');
  assert.equal(start, 'npm run start -w @groundcheck/server', 'npm start changed: start the server here as it does');
  assert.equal(serverScripts.start, 'NODE_ENV=${NODE_ENV:-production} node dist/main.js', 'the server start script changed');
  const built = await runShell(build, { cwd: repoRoot, env: process.env, timeoutInMs: 600_000 });
  assert.equal(built.code, 0, `${build}\n${built.stdout}${built.stderr}`);
  server = await startServerProcess(
    { NODE_ENV: 'production' },
    { command: [process.execPath, 'dist/main.js'], cwd: join(repoRoot, 'server'), stdio: ['ignore', 'ignore', 'inherit'] },
  );
  serverUrl = server.url;
  mockPort = await freePort();

  // The reader's folder: a project where @groundcheck/sdk and @groundcheck/mock are installed.
  [dir, support] = await Promise.all([
    mkdtemp(join(tmpdir(), 'groundcheck-readme-')),
    mkdtemp(join(tmpdir(), 'groundcheck-readme-support-')),
  ]);
  await symlink(join(repoRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
  // Every call the README shows must succeed: curl fails the block on an error status.
  const curl = execFileSync('sh', ['-c', 'command -v curl'], { encoding: 'utf8' }).trim();
  await writeFile(join(support, 'curl'), `#!/bin/sh\nexec '${curl}' --fail-with-body "$@"\n`);
  await chmod(join(support, 'curl'), 0o755);
});

after(async () => {
  if (server && server.child.exitCode === null) {
    const exited = new Promise((resolve) => server!.child.once('exit', resolve));
    server.child.kill('SIGTERM');
    const stuck = setTimeout(() => server!.child.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(stuck);
  }
  await Promise.all([dir, support].filter(Boolean).map((path) => rm(path, { recursive: true, force: true })));
});

test('every block is sh, ts or yaml; every sh and ts block runs or is skipped for a stated reason', () => {
  for (const block of blocks) assert.ok(['sh', 'ts', 'yaml'].includes(block.lang), `line ${block.line}: a \`${block.lang}\` block`);
  for (const name of Object.keys(notRun)) assert.ok(blockNamed(name), `notRun names ${name}, which the README no longer has`);
  for (const block of runnable) assert.ok(promises[block.name], `${block.name} (line ${block.line}): add what it promises`);
  for (const name of Object.keys(promises)) assert.ok(blockNamed(name), `promises names ${name}, which the README no longer has`);
  // The deletion closes the demo tenant, so nothing may come after it.
  const deletions = runnable.filter((block) => block.code.includes('/api/v1/account/delete'));
  assert.deepEqual(deletions, runnable.slice(-1), 'the account deletion is the last block');
});

for (const block of runnable) {
  test(`${block.name}, line ${block.line}`, async () => {
    const code = block.code.replaceAll('localhost:3000', `localhost:${new URL(serverUrl).port}`).replace(/\b4010\b/g, String(mockPort));
    const ports = new Set([new URL(serverUrl).port, String(mockPort)]);
    for (const [, port] of code.matchAll(/(?:localhost|127\.0\.0\.1):(\d+)/g)) assert.ok(ports.has(port!), `a call to port ${port}`);

    // The ts snippet is a file of the repository, run from its root as the README says.
    const run = await runShell(block.lang === 'sh' ? asInOneTerminal(code) : await exampleFile(block.code), {
      cwd: block.lang === 'sh' ? dir : repoRoot,
      env: {
        ...process.env,
        GROUNDCHECK_URL: serverUrl,
        PATH: `${support}:${process.env.PATH}`,
        // npx finds the packages in node_modules; nothing is fetched from the registry.
        npm_config_offline: 'true',
        npm_config_update_notifier: 'false',
      },
      timeoutInMs: 300_000,
    });
    assert.equal(run.code, 0, `exit ${run.code}\n${run.stdout}\n${run.stderr}`);
    await promises[block.name]!({ ...run, dir });
  });
}

/** The block with the variables that earlier blocks set, keeping those it sets for later ones: one terminal. */
function asInOneTerminal(code: string): string {
  const state = join(support, 'variables.sh');
  const assigned = [...new Set([...code.matchAll(/^([A-Za-z_]\w*)=/gm)].map((m) => m[1]!))];
  return [
    `if [ -f '${state}' ]; then . '${state}'; fi`,
    code,
    ...(assigned.length ? [`declare -p ${assigned.join(' ')} >> '${state}'`] : []),
  ].join('\n');
}

/** The command that runs the snippet's file, once the README shows that file as it is (its opening comment aside). */
async function exampleFile(code: string): Promise<string> {
  const path = 'examples/first-validation.mts';
  const file = await readFile(join(repoRoot, path), 'utf8');
  assert.equal(file.replace(/^(?:\/\/.*\n)+/, '').trimEnd(), code.trimEnd(), `the README shows ${path} as it is`);
  return `npx tsx ${path}`;
}
