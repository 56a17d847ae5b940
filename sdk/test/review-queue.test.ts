// A reviewer works the pending_review queue end to end through the SDK against the real reference
// server: validations with issues enter the queue, the reviewer pages through it and decides each
// case (approve, reject, edit with corrections, hand off), an external review system closes the
// handed-off case with an API key, and the queue, the counters, the analytics and the audit trail
// agree with what was done.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { writeFixture } from '../../server/test/support/fixtures.js';
import type { TestServer } from '../../server/test/support/harness.js';
import { ConflictError, createClient, type GroundcheckClient, verifyAuditChain } from '../src/index.js';
import { signIn, startReferenceServer } from './support/reference-server.js';

const policy =
  'Leave policy. Full-time employees are entitled to 25 days of paid leave per calendar year. Unused leave of up to 5 days may be carried over.';
const question = 'How many days of paid leave do full-time employees get?';

let server: TestServer;
let admin: GroundcheckClient;
let author: GroundcheckClient;
let reviewer: GroundcheckClient;
let externalSystem: GroundcheckClient;

before(async () => {
  const fixture = await writeFixture({ overrides: { acme: { audit_retention_days: 400, workflow: { review_required: 'when_issues' } } } });
  ({ server, admin } = await startReferenceServer({ fixture }));
  author = await signIn(server, 'acme', 'user');
  reviewer = await signIn(server, 'acme', 'user');
  const key = server.apiKeyBody('acme', 'user');
  externalSystem = createClient({ baseUrl: server.url, customerId: key.customer_id, apiKey: key.api_key });
});
after(() => server.close());

test('a reviewer empties the pending_review queue through the SDK', async () => {
  const made = [];
  for (const days of [30, 20, 28, 35]) {
    made.push(
      await author.validate({
        mode: 'validate',
        question,
        chatbot_response: `Full-time employees get ${days} days of paid leave per year.`,
        inline_text: policy,
      }),
    );
  }
  const clean = await author.validate({
    mode: 'validate',
    question,
    chatbot_response: 'Full-time employees get 25 days of paid leave per year.',
    inline_text: policy,
  });
  assert.ok(made.every((v) => v.review.state === 'pending_review'));
  assert.equal(clean.review.state, 'not_required');

  // The queue, newest first, two to a page.
  const queue = [];
  for await (const record of reviewer.history.iterate({ review_state: 'pending_review', limit: 2 })) queue.push(record);
  assert.deepEqual(
    queue.map((r) => r.validation_id),
    made.map((v) => v.validation_id).reverse(),
  );

  const decisions = ['approve', 'reject', 'edit', 'handoff'] as const;
  const decided = new Map<string, string>();
  for (const [i, record] of queue.entries()) {
    const action = decisions[i]!;
    const body =
      action === 'edit'
        ? {
            action,
            note: 'Corrected the entitlement.',
            corrections: [
              { element: 'claim:0', action: 'replace' as const, note: `${record.issue_count} issue: 25 days, per the policy.` },
            ],
          }
        : action === 'handoff'
          ? { action, external_reference: 'LEGAL-4711', note: 'Needs legal.' }
          : { action, note: `${action}d after reading the policy.` };
    const reviewed = await reviewer.history.review(record.validation_id, body);
    assert.equal(reviewed.review.history.at(-1)!.action, action);
    assert.match(reviewed.lastResponse.requestId!, /^req_/);
    if (action === 'edit') assert.deepEqual(reviewed.user_corrections, body.corrections);
    decided.set(record.validation_id, reviewed.review.state);
  }
  assert.deepEqual([...decided.values()], ['approved', 'rejected', 'edited', 'handed_off']);

  // A second decision on a decided case is refused with the typed error.
  const again = await admin.history
    .review(queue[0]!.validation_id, { action: 'reject', note: 'Changed my mind.' })
    .catch((e: unknown) => e);
  assert.ok(again instanceof ConflictError);
  assert.equal(again.code, 'invalid_review_transition');

  // The external review system closes the handed-off case machine to machine.
  const handedOff = (await reviewer.history.list({ review_state: 'handed_off' })).data;
  assert.equal(handedOff.length, 1);
  const closed = await externalSystem.history.review(handedOff[0]!.validation_id, { action: 'external_approve', note: 'Legal agrees.' });
  assert.equal(closed.review.state, 'external_approved');
  assert.equal(closed.review.history.at(-1)!.actor.type, 'api_key');
  assert.equal(closed.review.history.at(-1)!.external_reference, 'LEGAL-4711');

  const left = await reviewer.history.list({ review_state: 'pending_review' });
  assert.deepEqual([left.data.length, left.has_more, left.next_cursor], [0, false, null]);

  // The dashboard's figures match what was done.
  const stats = await reviewer.stats();
  assert.deepEqual(stats.validations, {
    this_month: 5,
    total: 5,
    with_issues: 4,
    by_mode: { validate: 5, generate: 0, validate_and_fix: 0 },
  });
  assert.deepEqual(stats.reviews, {
    pending_review: 0,
    approved: 1,
    rejected: 1,
    edited: 1,
    handed_off: 0,
    external_approved: 1,
    external_rejected: 0,
  });
  const analytics = await reviewer.analytics.get();
  assert.deepEqual(analytics.reviews, stats.reviews);
  assert.equal(analytics.time_to_decision.decisions, 4);
  assert.equal(analytics.totals.with_issues, 4);
  const csv = await reviewer.analytics.csv();
  assert.match(csv, /^date,validations,with_issues,/);
  assert.ok(csv.includes(`${analytics.date_to},5,4,5,0,0,`), csv);

  // One audit event per action, in one chain that verifies.
  const events = [];
  for await (const event of admin.audit.iterate({ limit: 50 })) events.push(event);
  const reviewKinds = events.filter((e) => !['validation_created', 'review_required'].includes(e.kind)).map((e) => e.kind);
  assert.deepEqual(reviewKinds, ['approved', 'rejected', 'edited', 'review_handed_off', 'external_review_approved']);
  assert.deepEqual(await verifyAuditChain(events), { valid: true, checked: events.length });
});
