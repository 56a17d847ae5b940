// Records past HISTORY_TTL_DAYS are gone from history, stats and review, while their audit events
// remain (section 8: audit events outlive validation history). The clock is injected and moved.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../src/lib/clock.js';
import { writeFixture } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/harness.js';
import { auditTrail, review, validateInline } from '../support/history.js';

const dayMs = 24 * 60 * 60 * 1000;
const clock = new ManualClock(new Date());
let server: TestServer;

before(async () => {
  const fixture = await writeFixture({ overrides: { acme: { audit_retention_days: 400, workflow: { review_required: 'always' } } } });
  server = await startTestServer({ fixture, clock, env: { HISTORY_TTL_DAYS: '30' } });
});
after(() => server.close());

const stats = async () => (await server.call('/api/v1/stats', server.apiKeyBody('acme', 'viewer'))).body;
const historyIds = async () =>
  (await server.call('/api/v1/history', { ...server.apiKeyBody('acme', 'admin'), limit: 100 })).body.data.map(
    (r: { validation_id: string }) => r.validation_id,
  );

test('after HISTORY_TTL_DAYS a validation leaves history, stats and review; its audit events stay', async () => {
  const user = server.apiKeyBody('acme', 'user');
  const old = await validateInline(server, user);
  assert.equal(old.review.state, 'pending_review');
  clock.advance(20 * dayMs);
  const recent = await validateInline(server, user);
  assert.deepEqual(await historyIds(), [recent.validation_id, old.validation_id]);
  assert.equal((await stats()).validations.total, 2);
  assert.equal((await stats()).reviews.pending_review, 2);

  // 30 days after the first validation, and a day more, as stats count retention to the day.
  clock.advance(11 * dayMs);
  assert.deepEqual(await historyIds(), [recent.validation_id]);
  const after = await stats();
  assert.equal(after.validations.total, 1);
  assert.equal(after.reviews.pending_review, 1);
  const gone = await review(server, user, old.validation_id, { action: 'approve', note: 'Too late.' });
  assert.deepEqual([gone.status, gone.body.code], [404, 'not_found']);
  assert.deepEqual(
    (await auditTrail(server, 'acme', { validation_id: old.validation_id })).map((e) => e.kind),
    ['validation_created', 'review_required'],
  );
  const kept = await review(server, user, recent.validation_id, { action: 'approve', note: 'Still here.' });
  assert.equal(kept.status, 200, kept.text);
});
