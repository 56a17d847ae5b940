// The operating point fitted to a tenant's own decided reviews and applied (issue 33, decision S113), through HTTP:
// calibration mode `apply` fits by itself (at start, periodically and after `refit_every` new decisions) and applies
// a point that beats the current one, once, with one audit event, also when two processes fit at once; new
// validations and the system card use it; a fit that would not help, a tenant below the minimum and another tenant's
// decisions change nothing; an admin applies the suggested point with POST /api/v1/engine/operating-point.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { verifyAuditChain } from '../../../sdk/src/audit-chain.js';
import { OperatingPointStore } from '../../src/cosmos/operating-point-store.js';
import { ManualClock } from '../../src/lib/clock.js';
import type { Tenant } from '../../src/tenants/tenant.js';
import { factsOf, tenantsOf } from '../support/audit.js';
import { writeFixture } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/harness.js';
import { auditTrail, type Credentials, callAs, decideFlagged, policy, question } from '../support/history.js';

const now = new Date('2026-09-01T08:00:00.000Z');
const calibrated = { min_decisions: 20, min_each: 5, target_precision: 0.9 };
const contradicting = 'Full-time employees get 30 days of paid leave per year.';

/**
 * Decided answers the engine flagged, one an hour from 1 August 09:00 (hour `first` on): `label(hour)` says whether
 * the reviewers found the answer wrong (rejected) or right (approved), and the risk the validation recorded.
 */
async function decide(
  server: TestServer,
  tenant: Tenant,
  first: number,
  count: number,
  label: (hour: number) => { wrong: boolean; risk: number },
): Promise<void> {
  for (let hour = first; hour < first + count; hour++) {
    await decideFlagged(server, tenant, { createdAt: new Date(Date.UTC(2026, 7, 1, 9 + hour)), ...label(hour) });
  }
}

/** The reviewers reject the answers of high risk (0.9) and approve those of moderate risk (0.4): a point at 0.1 is better. */
const highRiskWrong = (hour: number) => ({ wrong: hour % 2 === 0, risk: hour % 2 === 0 ? 0.9 : 0.4 });

/** The point acme's 30 decisions call for, as the event and the operation report it. */
const acmeFit = {
  previous_supported_score: 0.5,
  supported_score: 0.1,
  target_precision: 0.9,
  decisions: 30,
  // 21 older decisions (70%) to fit, 9 newer to measure: 4 wrong and 5 right, every one flagged when made.
  fitted_on: 21,
  measured_on: 9,
  previous: { precision: 0.4444, recall: 1 },
  fitted: { precision: 1, recall: 1 },
};

const appliedEvents = (server: TestServer, customerId: string) => auditTrail(server, customerId, { kinds: ['operating_point_applied'] });

const validateContradicting = (server: TestServer, credentials: Credentials) =>
  callAs(server, '/api/v1/validate', credentials, { mode: 'validate', question, chatbot_response: contradicting, inline_text: policy });

describe('calibration mode apply', () => {
  const clock = new ManualClock(now);
  /** The tenants' history, written by a process whose tenants are in mode `suggest`. */
  let seeded: TestServer;
  /** Two processes of the same deployment whose tenants are in mode `apply`. */
  let first: TestServer;
  let second: TestServer;
  let store: OperatingPointStore;

  before(async () => {
    const review_always = { review_required: 'always' };
    const suggesting = await writeFixture({
      overrides: {
        acme: { workflow: review_always, engine: { calibration: calibrated } },
        globex: {
          features: { document_templates: false, audit_trail: true },
          workflow: review_always,
          engine: { calibration: calibrated },
        },
        tiny: { rate_limit: { requests: 100000, window_seconds: 60 }, workflow: review_always, engine: { calibration: calibrated } },
      },
    });
    seeded = await startTestServer({ fixture: suggesting, clock });
    const tenants = tenantsOf(suggesting);
    await decide(seeded, tenants.acme!, 0, 30, highRiskWrong);
    // globex decides its older answers as acme does and its newer ones the other way round: the point fitted on
    // the older ones is worse on the newer ones than the current point. Were its decisions counted for acme (or
    // acme's for it), the figures below would differ.
    await decide(seeded, tenants.globex!, 0, 30, (hour) =>
      hour < 21 ? highRiskWrong(hour) : { wrong: hour % 2 === 0, risk: hour % 2 === 0 ? 0.4 : 0.9 },
    );
    // tiny has 3 decisions, below its minimum of 20.
    await decide(seeded, tenants.tiny!, 0, 3, () => ({ wrong: true, risk: 0.9 }));
    // Before any point is applied the contradicting answer is flagged.
    const flagged = await validateContradicting(seeded, seeded.apiKeyBody('acme', 'user'));
    assert.equal(flagged.status, 200, flagged.text);
    assert.equal(flagged.body.claims[0].status, 'contradicted');

    const applying = await writeFixture({
      overrides: {
        acme: { workflow: review_always, engine: { calibration: { ...calibrated, mode: 'apply', refit_every: 10 } } },
        globex: {
          features: { document_templates: false, audit_trail: true },
          workflow: review_always,
          engine: { calibration: { ...calibrated, mode: 'apply' } },
        },
        tiny: {
          rate_limit: { requests: 100000, window_seconds: 60 },
          workflow: review_always,
          engine: { calibration: { ...calibrated, mode: 'apply' } },
        },
      },
    });
    // Both start at once, and each fits at start: they race for the same tenants' documents.
    [first, second] = await Promise.all([
      startTestServer({ fixture: applying, cosmos: seeded.cosmos, clock }),
      startTestServer({ fixture: applying, cosmos: seeded.cosmos, clock }),
    ]);
    await Promise.all([first.container.recoveriesSettled(), second.container.recoveriesSettled()]);
    store = new OperatingPointStore(seeded.cosmos.container('history'));
  });
  after(async () => {
    await Promise.all([first?.close(), second?.close()]);
    await seeded?.close();
  });

  test('two processes fitting at once apply the point once, with one event naming both points and their figures', async () => {
    const events = await appliedEvents(first, 'acme');
    assert.equal(events.length, 1);
    const [event] = events;
    assert.deepEqual(event!.actor, { type: 'system', id: 'system', name: null, role: 'admin' });
    assert.equal(event!.validation_id, null);
    assert.deepEqual(event!.data, acmeFit);
    // Passes again, at once, with no new decisions: nothing is fitted, applied or written.
    const before = await store.read('acme');
    await Promise.all([first.services.engine.pass.runOnce(), second.services.engine.pass.runOnce()]);
    assert.equal((await appliedEvents(second, 'acme')).length, 1);
    assert.deepEqual((await store.read('acme'))?.item, before?.item);
    assert.deepEqual(before?.item.last_fit, { at: now.toISOString(), decisions: 30, status: 'suggested' });
  });

  test('new validations use the applied point, and the system card and analytics show it', async () => {
    const passed = await validateContradicting(second, second.apiKeyBody('acme', 'user'));
    assert.equal(passed.status, 200, passed.text);
    // The claim's flagging score lies between the new point (0.1) and the old one (0.5).
    assert.equal(passed.body.claims[0].status, 'supported');
    assert.equal(passed.body.issue_count, 0);
    const card = await callAs(first, '/api/v1/system-card', first.apiKeyBody('acme', 'viewer'));
    assert.equal(card.status, 200, card.text);
    assert.deepEqual(card.body.operating_point, {
      supported_score: 0.1,
      fitted_to_tenant: true,
      applied_at: now.toISOString(),
      calibration: 'apply',
    });
    const analytics = await callAs(first, '/api/v1/analytics', first.apiKeyBody('acme', 'viewer'));
    assert.deepEqual([analytics.body.calibration.mode, analytics.body.calibration.current_supported_score], ['apply', 0.1]);
  });

  test('a fit that would not beat the current point is not applied; below the minimum nothing is fitted', async () => {
    assert.deepEqual(await appliedEvents(first, 'globex'), []);
    const globex = (await store.read('globex'))?.item;
    assert.equal(globex?.applied, null);
    assert.deepEqual(globex?.last_fit, { at: now.toISOString(), decisions: 30, status: 'no_better_point' });
    const card = await callAs(first, '/api/v1/system-card', first.apiKeyBody('globex', 'viewer'));
    assert.deepEqual(card.body.operating_point, { supported_score: 0.5, fitted_to_tenant: false, applied_at: null, calibration: 'apply' });
    const flagged = await validateContradicting(first, first.apiKeyBody('globex', 'user'));
    assert.equal(flagged.body.claims[0].status, 'contradicted');
    // tiny: 3 decisions of the 20 needed; nothing was fitted or stored.
    assert.equal(await store.read('tiny'), null);
  });

  test('after refit_every new decisions the server fits again, and applies a better point', async () => {
    const acme = tenantsOf(first.fixture).acme!;
    // 9 more decisions through the first process: fewer than refit_every (10) since the last fit.
    const newer = (hour: number) => ({ wrong: hour % 2 === 0, risk: hour % 2 === 0 ? 0.95 : 0.9 });
    await decide(first, acme, 30, 9, newer);
    await first.services.engine.pass.settled();
    assert.equal((await appliedEvents(first, 'acme')).length, 1);
    assert.equal((await store.read('acme'))?.item.last_fit?.decisions, 30);
    // The tenth crosses it: the decision's own check fits on the 40 and applies the point they call for.
    await decide(first, acme, 39, 1, newer);
    await first.services.engine.pass.settled();
    const events = await appliedEvents(first, 'acme');
    assert.equal(events.length, 2);
    assert.deepEqual(events[1]!.data, {
      previous_supported_score: 0.1,
      supported_score: 0.05,
      target_precision: 0.9,
      decisions: 40,
      fitted_on: 28,
      measured_on: 12,
      previous: { precision: 0.5, recall: 1 },
      fitted: { precision: 0.5455, recall: 1 },
    });
  });

  test("the tenant's trail with the new kind verifies with the SDK's verifyAuditChain", async () => {
    const trail = await auditTrail(second, 'acme');
    assert.ok(trail.some((event) => event.kind === 'operating_point_applied'));
    assert.deepEqual(await verifyAuditChain(trail), { valid: true, checked: trail.length });
  });

  test("deleting the account deletes the tenant's operating point", async () => {
    const token = await first.login('acme', 'admin');
    const deleted = await first.call('/api/v1/account/delete', { confirmation: 'DELETE acme' }, { token });
    assert.equal(deleted.status, 200, deleted.text);
    assert.equal(await store.read('acme'), null);
  });
});

describe('POST /api/v1/engine/operating-point', () => {
  const clock = new ManualClock(now);
  let server: TestServer;
  let admin: string;

  before(async () => {
    const fixture = await writeFixture({
      overrides: {
        acme: { workflow: { review_required: 'always' }, engine: { calibration: calibrated } },
        globex: { workflow: { review_required: 'always' }, engine: { calibration: { mode: 'off' } } },
      },
    });
    server = await startTestServer({ fixture, clock });
    admin = await server.login('acme', 'admin');
  });
  after(() => server.close());

  const apply = (options: { token?: string; key?: string } = {}, body: object = {}) =>
    server.call('/api/v1/engine/operating-point', body, {
      token: options.token ?? admin,
      headers: options.key ? { 'idempotency-key': options.key } : {},
    });

  test('refused to a user, to an API key, and with calibration off; 409 too_few_decisions before the minimum', async () => {
    const user = await apply({ token: await server.login('acme', 'user') });
    assert.deepEqual([user.status, user.body.code], [403, 'insufficient_role']);
    const keyed = await server.call('/api/v1/engine/operating-point', server.apiKeyBody('acme', 'admin'));
    assert.deepEqual([keyed.status, keyed.body.code], [403, 'api_key_not_allowed']);
    const off = await apply({ token: await server.login('globex', 'admin') });
    assert.deepEqual([off.status, off.body.code], [409, 'calibration_off']);
    const few = await apply();
    assert.deepEqual([few.status, few.body.code], [409, 'too_few_decisions']);
    assert.match(few.body.detail, /0 decided reviews/);
  });

  test('in mode suggest an admin applies the suggested point, audited once; a replay writes nothing more', async () => {
    await decide(server, tenantsOf(server.fixture).acme!, 0, 30, highRiskWrong);
    const applied = await apply({ key: 'apply-operating-point-1' });
    assert.equal(applied.status, 200, applied.text);
    assert.deepEqual(applied.body, {
      supported_score: 0.1,
      fitted_to_tenant: true,
      applied_at: now.toISOString(),
      calibration: 'suggest',
      fit: acmeFit,
    });
    const events = await appliedEvents(server, 'acme');
    assert.equal(events.length, 1);
    assert.deepEqual([events[0]!.actor.type, events[0]!.actor.role, events[0]!.data], ['user', 'admin', acmeFit]);

    const replayed = await apply({ key: 'apply-operating-point-1' });
    assert.equal(replayed.status, 200, replayed.text);
    assert.equal(replayed.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(replayed.body, applied.body);
    // Asked again: the suggested point is the one in force.
    const again = await apply({ key: 'apply-operating-point-2' });
    assert.deepEqual([again.status, again.body.code], [409, 'no_better_operating_point']);
    assert.equal((await appliedEvents(server, 'acme')).length, 1);

    const card = await callAs(server, '/api/v1/system-card', server.apiKeyBody('acme', 'viewer'));
    assert.deepEqual(card.body.operating_point, {
      supported_score: 0.1,
      fitted_to_tenant: true,
      applied_at: now.toISOString(),
      calibration: 'suggest',
    });
    const trail = await auditTrail(server, 'acme');
    assert.deepEqual(await verifyAuditChain(trail), { valid: true, checked: trail.length });
  });

  test('an application whose process stopped before its audit event was cleared is audited once, by the pass', async () => {
    const store = new OperatingPointStore(server.cosmos.container('history'));
    const system = { type: 'system', id: 'system', name: null, role: 'admin' } as const;
    // The process appended the event, then stopped before clearing it: the trail has it already.
    const stored = (await store.read('acme'))!;
    const applied = stored.item.applied!;
    const pending = { application_id: applied.id, at: clock.now().toISOString(), actor: system, data: applied.fit };
    assert.ok(await store.write('acme', { ...stored.item, pending_event: pending }, stored));
    await server.services.engine.pass.runOnce();
    assert.deepEqual((await store.read('acme'))?.item.pending_event, pending, 'a young pending event is left to its process');
    clock.advance(61_000);
    await server.services.engine.pass.runOnce();
    assert.equal((await store.read('acme'))?.item.pending_event, null);
    assert.equal((await appliedEvents(server, 'acme')).length, 1);
    // The process wrote the point, then stopped before appending its event: the pass appends it.
    const next = (await store.read('acme'))!;
    const fit = { ...applied.fit, previous_supported_score: 0.1, supported_score: 0.2 };
    const unrecorded = { application_id: 'stopped-process', at: clock.now().toISOString(), actor: system, data: fit };
    assert.ok(
      await store.write('acme', { ...next.item, applied: { ...applied, id: 'stopped-process', fit }, pending_event: unrecorded }, next),
    );
    clock.advance(61_000);
    await server.services.engine.pass.runOnce();
    const events = await appliedEvents(server, 'acme');
    assert.deepEqual(
      events.map((event) => factsOf(event).supported_score),
      [0.1, 0.2],
    );
    assert.equal((await store.read('acme'))?.item.pending_event, null);
  });

  test('a body with a field the contract does not know is refused', async () => {
    const reply = await apply({}, { supported_score: 0.2 });
    assert.deepEqual([reply.status, reply.body.code], [400, 'invalid_request']);
  });
});
