// Two server processes on one Cosmos DB account (each with its own client), reviewers acting on the
// same cases at the same moment: exactly one action wins each case, the other gets 409, one audit
// event is written per case, the chain stays whole and the counters count each decision once.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { verifyAuditChain } from '../../../sdk/src/audit-chain.js';
import { writeFixture } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/harness.js';
import { auditTrail, review, validateInline } from '../support/history.js';

let first: TestServer;
let second: TestServer;

before(async () => {
  first = await startTestServer({
    fixture: await writeFixture({ overrides: { acme: { audit_retention_days: 400, workflow: { review_required: 'always' } } } }),
  });
  second = await startTestServer({
    fixture: first.fixture,
    storage: first.container.storage,
    env: { COSMOS_ENDPOINT: first.cosmos.endpoint, COSMOS_KEY: Buffer.from('second-process').toString('base64') },
  });
});
after(async () => {
  await second?.close();
  await first?.close();
});

const stats = async (server: TestServer) => {
  const reply = await server.call('/api/v1/stats', server.apiKeyBody('acme', 'viewer'));
  assert.equal(reply.status, 200, reply.text);
  return reply.body.reviews;
};

test('reviews racing on one case from two servers: one wins, the other gets 409, one audit event', async () => {
  assert.notEqual(first.cosmos, second.cosmos);
  const onFirst = { token: await first.login('acme', 'user') };
  const onSecond = { token: await second.login('acme', 'admin') };
  const cases = 8;
  const validations = [];
  for (let i = 0; i < cases; i += 1) {
    const made = i % 2 ? await validateInline(second, onSecond) : await validateInline(first, onFirst);
    validations.push(made.validation_id);
  }
  const before = await stats(first);

  // Each case gets an approve on one server and, at the same moment, a reject (or a second approve) on the other.
  const outcomes = await Promise.all(
    validations.map(async (id, i) => {
      const [a, b] = await Promise.all([
        review(first, onFirst, id, { action: 'approve', note: `approved on the first server ${i}` }),
        review(
          second,
          onSecond,
          id,
          i % 3 === 0 ? { action: 'approve', note: `also approved ${i}` } : { action: 'reject', note: `rejected on the second ${i}` },
        ),
      ]);
      return { id, replies: [a, b] };
    }),
  );

  let approved = 0;
  let rejected = 0;
  for (const { id, replies } of outcomes) {
    const statuses = replies.map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, 409], `${id}: ${replies.map((r) => r.text).join(' | ')}`);
    const loser = replies.find((r) => r.status === 409)!;
    assert.equal(loser.body.code, 'invalid_review_transition');
    const winner = replies.find((r) => r.status === 200)!.body;
    assert.equal(winner.review.history.length, 1);
    if (winner.review.state === 'approved') approved += 1;
    else rejected += 1;
    const decisions = (await auditTrail(second, 'acme', { validation_id: id })).filter(
      (e) => e.kind === 'approved' || e.kind === 'rejected',
    );
    assert.equal(decisions.length, 1, `${id}: one decision event`);
    assert.equal(decisions[0]!.kind, winner.review.state);
  }

  const trail = await auditTrail(first, 'acme');
  assert.deepEqual(await verifyAuditChain(trail), { valid: true, checked: trail.length });
  const after = await stats(second);
  assert.equal(after.pending_review, before.pending_review - cases);
  assert.equal(after.approved, before.approved + approved);
  assert.equal(after.rejected, before.rejected + rejected);
});
