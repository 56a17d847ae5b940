// POST /api/v1/history/{id}/review through HTTP: every allowed transition and every refused pair,
// generated from the code's table (checked against the decisions document by review-table.test.ts),
// with the record's history, corrections and audit event of each action; required fields; who may
// review what; and the hash chain still whole at the end.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ReviewAction, ReviewState } from '@groundcheck/contract';
import { verifyAuditChain } from '../../../sdk/src/audit-chain.js';
import { HistoryStore } from '../../src/cosmos/history-store.js';
import { type ReviewTransition, reviewTransitions } from '../../src/services/review/review-transitions.js';
import { factsOf, tenantsOf } from '../support/audit.js';
import { writeFixture } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/harness.js';
import { auditTrail, type Credentials, recordValidation, review, validateInline } from '../support/history.js';
import { requiredFacts } from './required-facts.js';

let server: TestServer;
let user: Credentials;
let admin: Credentials;
let integration: Credentials;
let history: HistoryStore;

before(async () => {
  // Review when the answer has issues: a contradicted answer is pending_review, a supported one not_required.
  const fixture = await writeFixture({ overrides: { acme: { audit_retention_days: 400, workflow: { review_required: 'when_issues' } } } });
  server = await startTestServer({ fixture });
  user = { token: await server.login('acme', 'user') };
  admin = { token: await server.login('acme', 'admin') };
  integration = server.apiKeyBody('acme', 'user');
  history = new HistoryStore(server.cosmos.container('history'));
});
after(() => server.close());

const states: ReviewState[] = [
  'not_required',
  'pending_review',
  'approved',
  'rejected',
  'edited',
  'handed_off',
  'external_approved',
  'external_rejected',
];
const actions: ReviewAction[] = ['approve', 'reject', 'edit', 'handoff', 'external_approve', 'external_reject'];

const facts = {
  note: 'Checked against the 2026 handbook.',
  corrections: [{ element: 'claim:0', action: 'replace', note: '30 days corrected to 25 days.' }],
  external_reference: 'SNOW-CHG0042137',
} as const;

/** A complete request for the transition: its required facts, and a note where one is optional. */
function requestFor(t: ReviewTransition): Record<string, unknown> {
  const body: Record<string, unknown> = { action: t.action };
  for (const fact of requiredFacts(t.action)) body[fact] = facts[fact];
  if (!requiredFacts(t.action).includes('note')) body.note = `${t.action} recorded.`;
  return body;
}

/** The transitions that lead from pending_review to `state` (breadth first over the table). */
function pathTo(state: ReviewState): ReviewTransition[] {
  const paths = new Map<ReviewState, ReviewTransition[]>([['pending_review', []]]);
  for (const [reached, path] of paths)
    for (const t of reviewTransitions) if (t.from === reached && !paths.has(t.to)) paths.set(t.to, [...path, t]);
  const path = paths.get(state);
  assert.ok(path, `${state} is reachable`);
  return path;
}

/** Who acts: an external system's decisions come machine to machine, with an API key. */
const actorFor = (t: ReviewTransition): Credentials => (t.from === 'handed_off' ? integration : user);

/** A validation of the user's in `state`, reached through the table's own transitions. */
async function validationIn(state: ReviewState): Promise<string> {
  const made = await validateInline(server, user, { issues: state !== 'not_required' });
  assert.equal(made.review.state, state === 'not_required' ? 'not_required' : 'pending_review');
  if (state === 'not_required') return made.validation_id;
  for (const t of pathTo(state)) {
    const reply = await review(server, actorFor(t), made.validation_id, requestFor(t));
    assert.equal(reply.status, 200, reply.text);
  }
  return made.validation_id;
}

const kindsOf = async (validationId: string) => (await auditTrail(server, 'acme', { validation_id: validationId })).map((e) => e.kind);

describe('allowed transitions', () => {
  for (const t of reviewTransitions) {
    test(`${t.from} --${t.action}--> ${t.to}: the record, its review entry and the ${t.auditEvent} audit event`, async () => {
      const validationId = await validationIn(t.from);
      const kindsBefore = await kindsOf(validationId);
      const credentials = actorFor(t);
      const me = (
        await server.call(
          '/auth/me',
          'token' in credentials ? undefined : credentials,
          'token' in credentials ? { token: credentials.token } : {},
        )
      ).body;
      const reply = await review(server, credentials, validationId, requestFor(t));
      assert.equal(reply.status, 200, reply.text);
      const record = reply.body;
      assert.equal(record.validation_id, validationId);
      assert.equal(record.review.state, t.to);
      const entry = record.review.history.at(-1);
      assert.deepEqual(
        {
          action: entry.action,
          from_state: entry.from_state,
          to_state: entry.to_state,
          actor: [entry.actor.type, entry.actor.id, entry.actor.role],
        },
        { action: t.action, from_state: t.from, to_state: t.to, actor: [me.principal.type, me.principal.id, me.role] },
      );
      assert.equal(entry.note, requestFor(t).note);
      // An external decision without its own reference carries the handoff's.
      assert.equal(
        entry.external_reference,
        t.action === 'approve' || t.action === 'reject' || t.action === 'edit' ? null : facts.external_reference,
      );
      assert.deepEqual(record.user_corrections, t.action === 'edit' ? facts.corrections : []);
      assert.deepEqual(entry.corrections, t.action === 'edit' ? facts.corrections : []);

      const events = await auditTrail(server, 'acme', { validation_id: validationId });
      assert.deepEqual(
        events.map((e) => e.kind),
        [...kindsBefore, t.auditEvent],
      );
      const event = events.at(-1)!;
      assert.deepEqual([event.actor.type, event.actor.id, event.actor.role], [me.principal.type, me.principal.id, me.role]);
      assert.equal(event.occurred_at >= entry.at, true);
      if (requiredFacts(t.action).includes('note') || t.action !== 'edit') assert.equal(factsOf(event).note, requestFor(t).note);
      if (t.action === 'edit') assert.deepEqual(factsOf(event).corrections, facts.corrections);
      if (t.to === 'handed_off' || t.from === 'handed_off') assert.equal(factsOf(event).external_reference, facts.external_reference);
      const stored = await history.get('acme', validationId);
      assert.equal(stored!.outbox_pending, false, 'the outbox is appended and cleared');
    });
  }
});

describe('refused pairs', () => {
  for (const state of states) {
    const refused = actions.filter((action) => !reviewTransitions.some((t) => t.from === state && t.action === action));
    test(`from ${state}: ${refused.join(', ')} answer 409 invalid_review_transition and change nothing`, async () => {
      const validationId = await validationIn(state);
      const before = await history.read('acme', validationId);
      const kindsBefore = await kindsOf(validationId);
      for (const action of refused) {
        const body = requestFor(reviewTransitions.find((t) => t.action === action)!);
        const reply = await review(server, admin, validationId, body);
        assert.deepEqual([reply.status, reply.body.code], [409, 'invalid_review_transition'], `${state} + ${action}: ${reply.text}`);
      }
      assert.equal((await history.read('acme', validationId))!.etag, before!.etag, 'the record is not written');
      assert.deepEqual(await kindsOf(validationId), kindsBefore);
    });
  }
});

describe('required fields', () => {
  test('a request missing a fact its action requires is a 400, and nothing changes', async () => {
    const validationId = await validationIn('pending_review');
    const before = await history.read('acme', validationId);
    for (const t of reviewTransitions.filter((t) => t.from === 'pending_review')) {
      for (const fact of requiredFacts(t.action)) {
        const { [fact]: _left, ...body } = requestFor(t);
        const reply = await review(server, user, validationId, body);
        assert.deepEqual([reply.status, reply.body.code], [400, 'invalid_request'], `${t.action} without ${fact}: ${reply.text}`);
      }
    }
    for (const body of [
      { action: 'edit', note: 'x', corrections: [] },
      { action: 'approve', note: '' },
      { action: 'approve', note: 'x', corrections: facts.corrections },
      { action: 'merge', note: 'x' },
    ]) {
      const reply = await review(server, user, validationId, body);
      assert.deepEqual([reply.status, reply.body.code], [400, 'invalid_request'], JSON.stringify(body));
    }
    assert.equal((await history.read('acme', validationId))!.etag, before!.etag);
  });
});

describe('who may review', () => {
  test('an unknown id, another tenant’s id and a viewer are refused; nothing changes', async () => {
    const validationId = await validationIn('pending_review');
    const approve = { action: 'approve', note: 'Checked.' };
    const unknown = await review(server, user, 'val_01JD3X8Q5Z7M2N4P6R8T0V2W4Y', approve);
    assert.deepEqual([unknown.status, unknown.body.code], [404, 'not_found']);
    const globex = await review(server, { token: await server.login('globex', 'admin') }, validationId, approve);
    assert.deepEqual([globex.status, globex.body.code], [404, 'not_found']);
    const viewer = await review(server, { token: await server.login('acme', 'viewer') }, validationId, approve);
    assert.deepEqual([viewer.status, viewer.body.code], [403, 'insufficient_role']);
    assert.equal((await history.get('acme', validationId))!.review.state, 'pending_review');
  });

  test('a user cannot review, or even find, a validation grounded on a group they may not use; an admin can', async () => {
    const financeGroup = 'grp_01JD3XA1B2C3D4E5F6G7H8J9K0';
    const tenant = { ...tenantsOf(server.fixture).acme!, workflow: { reviewRequired: 'always' as const } };
    const record = await recordValidation(server, tenant, {
      sourceGroups: [financeGroup],
      user: { type: 'user', id: 'usr_01JD3X8Q5Z7M2N4P6R8T0V2W4Y', name: 'Avery Admin', role: 'admin' },
    });
    const byUser = await review(server, user, record.validation_id, { action: 'approve', note: 'Checked.' });
    assert.deepEqual([byUser.status, byUser.body.code], [404, 'not_found']);
    const byAdmin = await review(server, admin, record.validation_id, { action: 'approve', note: 'Checked.' });
    assert.equal(byAdmin.status, 200, byAdmin.text);
  });
});

test('after every action above, the audit trail is one unbroken hash chain', async () => {
  const trail = await auditTrail(server, 'acme');
  // 8 review events from the allowed transitions, 8 on the way to the refused pairs' states, 1 by the admin.
  assert.ok(trail.filter((e) => e.kind !== 'validation_created' && e.kind !== 'review_required').length >= 17);
  assert.deepEqual(await verifyAuditChain(trail), { valid: true, checked: trail.length });
});
