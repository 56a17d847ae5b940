// The examples' code against the reference server: real findings with the claim marked, a real
// review queue, and the audit trail of this run exported as CSV with its chain verified.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createClient, type GroundcheckClient } from '@groundcheck/sdk';
import { exportAudit } from '../../examples/audit-export/index.js';
import { approve, pendingReviews } from '../../examples/review-queue/index.js';
import { formatFindings, validateAnswer } from '../../examples/validate-answer/index.js';
import { writeFixture } from '../../server/test/support/fixtures.js';
import { startTestServer, type TestServer } from '../../server/test/support/harness.js';

let server: TestServer;
let user: GroundcheckClient;
let dir: string;

before(async () => {
  const fixture = await writeFixture({ overrides: { acme: { workflow: { review_required: 'always' } } } });
  [server, dir] = await Promise.all([startTestServer({ fixture }), mkdtemp(join(tmpdir(), 'groundcheck-examples-'))]);
  user = createClient({ baseUrl: server.url, token: await server.login('acme', 'user') });
});
after(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const answer = 'Full-time employees get 30 days of paid leave per year.';

test('validate-answer: a contradicted claim, marked in the answer', async () => {
  const result = await validateAnswer(user, {
    question: 'How many days of paid leave do full-time employees get?',
    answer,
    sourceText: 'Full-time employees are entitled to 25 days of paid leave per calendar year.',
  });
  const printed = formatFindings(result);
  assert.ok(result.issue_count > 0, printed);
  const claimed = result.findings.find((f) => f.claim_index != null);
  assert.ok(claimed, printed);
  const claim = result.claims[claimed.claim_index!]!;
  assert.ok(printed.includes(`${answer.slice(0, claim.start)}[[${answer.slice(claim.start, claim.end)}]]`), printed);
});

test('review-queue: the validation waits for review and is approved with a note', async () => {
  const result = await validateAnswer(user, { question: 'How long is the warranty?', answer: 'Three years.', sourceText: 'Two years.' });
  const pending = await pendingReviews(user);
  assert.ok(pending.some((r) => r.validation_id === result.validation_id));
  const record = await approve(user, result.validation_id, 'Checked against the warranty terms.');
  assert.equal(record.review.state, 'approved');
  assert.ok(!(await pendingReviews(user)).some((r) => r.validation_id === result.validation_id));
});

test("audit-export: this run's events as CSV, every row tied to a verified chain", async () => {
  const admin = createClient({ baseUrl: server.url, token: await server.login('acme', 'admin') });
  const result = await exportAudit(admin, join(dir, 'audit.csv'));
  assert.ok(result.rows >= 4, `${result.rows} rows`);
  assert.deepEqual(result.chain, { valid: true, checked: result.rows });
  assert.equal(result.unmatched, 0);
  assert.equal((await readFile(result.file, 'utf8')).split('\r\n').filter(Boolean).length, result.rows + 1);
});
