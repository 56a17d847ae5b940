// A review whose audit event could not be appended (the trail unreachable, the process gone) keeps
// the event in the record's outbox, and recovery appends it exactly once; a review whose batch
// fails writes neither the state nor the event.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { verifyAuditChain } from '../../../sdk/src/audit-chain.js';
import { HistoryStore } from '../../src/cosmos/history-store.js';
import { SourceGroupStore } from '../../src/cosmos/source-group-store.js';
import { systemClock } from '../../src/lib/clock.js';
import { createLogger } from '../../src/logger.js';
import type { AuditTrail } from '../../src/services/audit/audit-trail.js';
import type { Principal } from '../../src/services/auth/principal.js';
import type { Caller } from '../../src/services/call-context.js';
import { ReviewService } from '../../src/services/review/review-service.js';
import { RecordOutbox } from '../../src/services/validation/record-outbox.js';
import type { Tenant } from '../../src/tenants/tenant.js';
import { tenantsOf } from '../support/audit.js';
import { FailingTrail } from '../support/failing-trail.js';
import { writeFixture } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/harness.js';
import { auditTrail, recordValidation } from '../support/history.js';

let server: TestServer;
let tenant: Tenant;
let history: HistoryStore;

before(async () => {
  const fixture = await writeFixture({ overrides: { acme: { audit_retention_days: 400, workflow: { review_required: 'always' } } } });
  server = await startTestServer({ fixture });
  tenant = tenantsOf(fixture).acme!;
  history = new HistoryStore(server.cosmos.container('history'));
});
after(() => server.close());

function reviewerCall(validationId: string): Caller<{ id: string }> {
  const principal: Principal = {
    type: 'user',
    id: 'usr_01JD3XD5E6F7G8H9J0K1M2N3P4',
    name: 'Uma User',
    email: 'user@acme.test',
    role: 'user',
    dataAccessRoles: [],
    authentication: 'local',
    expiresAt: null,
    tenant,
  };
  return {
    requestId: 'req_test',
    log: createLogger('silent'),
    clock: systemClock,
    abortSignal: new AbortController().signal,
    clientAddress: '127.0.0.1',
    principal,
    tenant,
    rateLimit: null,
    path: { id: validationId },
    keyed: null,
  };
}

const reviews = (trail: AuditTrail, store = history) =>
  new ReviewService({
    history: store,
    outbox: new RecordOutbox(store, trail, server.services.webhooks),
    groups: new SourceGroupStore(server.cosmos.container('sources')),
    historyTtlDays: 90,
  });

const kinds = async (validationId: string) => (await auditTrail(server, 'acme', { validation_id: validationId })).map((e) => e.kind);

test('the audit trail fails after the state changed: the event waits in the outbox and recovery appends it once', async () => {
  const { validation_id: id } = await recordValidation(server, tenant);
  const record = await reviews(new FailingTrail(server.cosmos.container('audit'), 1)).review(reviewerCall(id), {
    action: 'approve',
    note: 'Checked.',
  });
  assert.equal(record.review.state, 'approved');
  const stored = await history.get('acme', id);
  assert.equal(stored!.outbox_pending, true);
  assert.deepEqual(await kinds(id), ['validation_created', 'review_required']);

  const outbox = new RecordOutbox(history, server.services.audit.trail, server.services.webhooks);
  assert.equal(await outbox.recover(tenant, new Date(Date.now() - 60_000)), 0, 'a fresh outbox is left to its request');
  assert.ok((await outbox.recover(tenant, new Date(Date.now() + 60_000))) >= 1);
  assert.deepEqual(await kinds(id), ['validation_created', 'review_required', 'approved']);
  assert.equal((await history.get('acme', id))!.outbox_pending, false);
  await outbox.recover(tenant, new Date(Date.now() + 60_000));
  assert.deepEqual(await kinds(id), ['validation_created', 'review_required', 'approved'], 'appended once');
  const trail = await auditTrail(server, 'acme');
  assert.deepEqual(await verifyAuditChain(trail), { valid: true, checked: trail.length });
});

test('the review batch fails: neither the new state nor the audit event is written', async () => {
  const { validation_id: id } = await recordValidation(server, tenant);
  const broken = new HistoryStore(server.cosmos.container('history'));
  broken.update = async () => {
    throw new Error('injected: Cosmos DB is unreachable');
  };
  await assert.rejects(reviews(server.services.audit.trail, broken).review(reviewerCall(id), { action: 'reject', note: 'No.' }));
  assert.equal((await history.get('acme', id))!.review.state, 'pending_review');
  assert.deepEqual(await kinds(id), ['validation_created', 'review_required']);
});
