// The package as a customer gets it: `npm pack` (which builds), installed from the tarball into a new
// project outside the repository (`npm ci --offline`, test/support/offline-install.ts); there it is
// imported as ESM, required as CJS and type-checked with tsc --strict by this repository's TypeScript
// and by the oldest one the package supports; publint, arethetypeswrong and `npm publish --dry-run`
// check the tarball.
import assert from 'node:assert/strict';
import { type SpawnSyncOptions, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { installPackedPackage } from '../../test/support/offline-install.js';
import { arethetypeswrong, publint, publishDryRun } from '../../test/support/publish-checks.js';
import { json, type Loopback, problem, startLoopback } from './support/loopback.js';

const sdkRoot = fileURLToPath(new URL('..', import.meta.url));
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const bin = (name: string) => join(repoRoot, 'node_modules', '.bin', name);

let work: string;
let consumer: string;
let tarball: string;
let server: Loopback;

function run(command: string, args: string[], options: SpawnSyncOptions = {}) {
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    timeout: 120_000,
    ...options,
    env: { ...process.env, npm_config_update_notifier: 'false', ...options.env },
  });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  assert.equal(result.status, 0, `${command} ${args.join(' ')} failed:\n${output}`);
  return String(result.stdout);
}

/** Runs a Node program without blocking this process, whose loopback server it calls. */
function runNode(file: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file], { cwd: consumer, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`${file} exited with ${code}:\n${stdout}${stderr}`))));
  });
}

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'gc-sdk-package-'));
  run('npm', ['pack', '--pack-destination', work], { cwd: sdkRoot });
  tarball = join(work, readdirSync(work).find((file) => file.endsWith('.tgz'))!);
  consumer = join(work, 'consumer');
  mkdirSync(consumer);
  const copy = join(consumer, basename(tarball));
  copyFileSync(tarball, copy);
  installPackedPackage(consumer, copy, 'sdk');
  server = await startLoopback((request, res) => {
    if (request.path === '/api/v1/stats') return json(res, 200, { validations: { this_month: 3 } });
    problem(res, 404, 'not_found');
  });
});

after(async () => {
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** What both module formats run: a call, an error, a webhook. */
const program = (load: string) => `${load}
const client = createClient({ baseUrl: process.env.BASE_URL, customerId: 'acme', apiKey: 'gck_Ab12Cd34_0123456789abcdefghijklmnopqrstuv', maxRetries: 0 });
const stats = await client.stats();
const error = await client.templates.get('tpl_01JD3XC4D5E6F7G8H9J0K1M2N3').catch((e) => e);
const event = { event_id: 'evt_01JD3X8R2K4M6P8R0T2V4X6Z8B', event_type: 'service.validation.findings', timestamp: 1, customer_id: 'acme', customer_name: 'Acme', validation_id: 'val_01JD3X8Q5Z7M2N4P6R8T0V2W4Y', mode: 'validate', question: 'Q', severity: 'high', confidence_level: 'low', issue_count: 0, issues: [], findings: [], user_corrections: [], source_conflict_count: 0, output_excerpt: '', user: { user_id: 'usr_1', name: 'U', role: 'user' } };
const verified = await verifyWebhook({ headers: { authorization: 'Bearer secret' }, body: JSON.stringify(event), token: 'secret' });
console.log(JSON.stringify({
  stats,
  requestId: stats.lastResponse.requestId,
  error: [error.name, error instanceof NotFoundError, error instanceof GroundcheckError, error.code],
  webhook: verified.event_id,
}));`;

describe('the packed package', () => {
  test('ships only the build, its types and the README', () => {
    const listing = run('tar', ['-tzf', tarball]).trim().split('\n').sort();
    assert.deepEqual(listing, [
      'package/CHANGELOG.md',
      'package/LICENSE',
      'package/README.md',
      'package/dist/index.cjs',
      'package/dist/index.cjs.map',
      'package/dist/index.d.cts',
      'package/dist/index.d.ts',
      'package/dist/index.js',
      'package/dist/index.js.map',
      'package/package.json',
    ]);
  });

  test('imports as ESM', async () => {
    const file = join(consumer, 'esm.mjs');
    writeFileSync(
      file,
      `${program("import { createClient, GroundcheckError, NotFoundError, verifyWebhook } from '@groundcheck/sdk';")}
console.log(import.meta.resolve('@groundcheck/sdk'));`,
    );
    const [line, resolved] = (await runNode(file, { BASE_URL: server.url })).trim().split('\n');
    assertProgramOutput(line!);
    assert.match(resolved!, /node_modules\/@groundcheck\/sdk\/dist\/index\.js$/);
  });

  test('requires as CJS', async () => {
    const file = join(consumer, 'cjs.cjs');
    writeFileSync(
      file,
      `(async () => {
${program("const { createClient, GroundcheckError, NotFoundError, verifyWebhook } = require('@groundcheck/sdk');")}
console.log(require.resolve('@groundcheck/sdk'));
})().catch((error) => { console.error(error); process.exit(1); });`,
    );
    const [line, resolved] = (await runNode(file, { BASE_URL: server.url })).trim().split('\n');
    assertProgramOutput(line!);
    assert.match(resolved!, /node_modules\/@groundcheck\/sdk\/dist\/index\.cjs$/);
  });

  test('type-checks a TypeScript consumer with tsc --strict, from ESM and from CJS, down to the oldest TypeScript it supports', () => {
    const source = `import {
  createClient, GroundcheckError, RateLimitError, verifyWebhook, verifyAuditChain,
  type AuditEvent, type Finding, type Validation, type ValidationFindingsEvent, type ValidationRecord,
} from '@groundcheck/sdk';

export async function main(): Promise<void> {
  const client = createClient({ baseUrl: 'https://groundcheck.example', customerId: 'acme', apiKey: 'gck_x' });
  const result: Validation = await client.validate({ mode: 'validate', question: 'Q?', chatbot_response: 'A.', inline_text: 'S.' });
  const findings: Finding[] = result.findings;
  const text: string = result.mode === 'generate' ? result.answer : result.chatbot_response;
  const requestId: string | null = (await client.stats()).lastResponse.requestId;
  const records: ValidationRecord[] = [];
  for await (const record of client.history.iterate({ review_state: 'pending_review' })) records.push(record);
  const events: AuditEvent[] = (await client.audit.list()).data;
  const chain = await verifyAuditChain(events);
  const csv: string = await client.analytics.csv({ date_from: '2026-11-01' });
  try {
    await client.templates.get('tpl_01JD3XC4D5E6F7G8H9J0K1M2N3');
  } catch (error) {
    if (error instanceof RateLimitError) console.log(error.retryAfterInMs);
    else if (error instanceof GroundcheckError) console.log(error.status, error.code, error.requestId, error.problem?.detail);
  }
  const event: ValidationFindingsEvent = await verifyWebhook({ headers: new Headers(), body: '{}', token: ['old', 'new'] });
  // @ts-expect-error an unknown mode is refused, so the types are real and not any
  await client.validate({ mode: 'summarize', question: 'Q?' });
  console.log(findings, text, requestId, records, chain.valid, csv, event.severity);
}
`;
    writeFileSync(join(consumer, 'consumer.mts'), source);
    writeFileSync(join(consumer, 'consumer.cts'), source);
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          lib: ['ES2022', 'DOM'],
          types: [],
          skipLibCheck: false,
        },
        files: ['consumer.mts', 'consumer.cts'],
      }),
    );
    run(bin('tsc'), ['-p', join(consumer, 'tsconfig.json'), '--strict'], { cwd: consumer });
    // The oldest supported version is the package's stated peer range; test/typescript-minimum installs it.
    const stated = JSON.parse(readFileSync(join(sdkRoot, 'package.json'), 'utf8')).peerDependencies.typescript as string;
    const oldest = join(repoRoot, 'test', 'typescript-minimum', 'node_modules', 'typescript');
    const version = JSON.parse(readFileSync(join(oldest, 'package.json'), 'utf8')).version as string;
    assert.equal(stated, `>=${version.split('.').slice(0, 2).join('.')}`, 'test/typescript-minimum pins the stated minimum');
    run(process.execPath, [join(oldest, 'bin', 'tsc'), '-p', join(consumer, 'tsconfig.json'), '--strict'], { cwd: consumer });
  });

  test('publint, arethetypeswrong and npm publish --dry-run accept the tarball', async () => {
    assert.match(publint(tarball), /All good!/);
    assert.match(arethetypeswrong(tarball), /No problems found/);
    const published = await publishDryRun(tarball);
    assert.equal(published['@groundcheck/sdk']?.id, '@groundcheck/sdk@0.1.0');
  });
});

function assertProgramOutput(line: string) {
  const output = JSON.parse(line);
  assert.deepEqual(output.stats, { validations: { this_month: 3 } });
  assert.match(output.requestId, /^req_loopback/);
  assert.deepEqual(output.error, ['NotFoundError', true, true, 'not_found']);
  assert.equal(output.webhook, 'evt_01JD3X8R2K4M6P8R0T2V4X6Z8B');
}
