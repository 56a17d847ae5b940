// The examples run as a customer runs them (`npx tsx examples/<name>/...`), against the mock: each
// exits 0 and prints what it promises. examples-server.test.ts runs the same code against the server.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { type RunningMock, startMock } from '@groundcheck/mock';
import { repoRoot } from '../support/spec.js';

const run = promisify(execFile);
let mock: RunningMock;
let dir: string;

before(async () => {
  [mock, dir] = await Promise.all([startMock({ port: 0 }), mkdtemp(join(tmpdir(), 'groundcheck-examples-'))]);
});
after(async () => {
  await mock.close();
  await rm(dir, { recursive: true, force: true });
});

/** Runs an example with the mock's address and a token, from the repository root; resolves with stdout. */
async function example(file: string, ...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', join('examples', file), ...args], {
    cwd: repoRoot,
    env: { ...process.env, GROUNDCHECK_URL: mock.url, GROUNDCHECK_TOKEN: 'any-token' },
  });
  return stdout;
}

test('validate-answer prints the findings with the claim marked', async () => {
  const out = await example('validate-answer/index.ts');
  assert.match(out, /^val_\w+: 1 issue\(s\), severity high, confidence low$/m);
  assert.match(out, /✗ \[high\] Leave entitlement contradicts the sources/);
  assert.match(out, /\[\[Full-time employees get 30 days of paid leave per year\.\]\]/);
});

test('review-queue lists the pending validations and approves one with a note', async () => {
  assert.match(await example('review-queue/index.ts'), /^\d+ validation\(s\) pending review$/m);
  const approved = await example('review-queue/index.ts', '--approve', 'val_01JD3X8Q5Z7M2N4P6R8T0V2W4Y', '--note', 'Checked.');
  assert.match(approved, /^val_\w+ is now approved$/m);
});

test('audit-export writes the CSV and verifies the chain', async () => {
  const file = join(dir, 'audit.csv');
  const out = await example('audit-export/index.ts', file);
  assert.match(out, /^3 event\(s\) written to .*audit\.csv$/m);
  assert.match(out, /^Hash chain verified: 3 event\(s\)\.$/m);
  assert.match(await readFile(file, 'utf8'), /^schema_version,event_id,sequence,/);
});

test('the reconciliation example polls the history', async () => {
  const out = await example('webhook-receiver/reconcile.ts');
  assert.match(out, /^\d+ validation\(s\) since .* to handle$/m);
});
