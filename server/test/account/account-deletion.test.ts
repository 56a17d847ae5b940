// Account deletion (section 4.7, decision row 38) through HTTP. Each test that deletes a tenant has
// its own server, so no other test loses its tenant. A wrong confirmation deletes nothing; the
// right one deletes every item of the tenant's partition in every container but the audit trail,
// and its stored files, refuses its credentials from then on, writes a last audit event and
// leaves other tenants as they were; a deletion cut short halfway is completed by recovery.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AuditEvent } from '@groundcheck/contract';
import { AuditStore } from '../../src/cosmos/audit-store.js';
import { containerDefinitions } from '../../src/cosmos/containers.js';
import type { CosmosStore } from '../../src/cosmos/cosmos.js';
import { TenantStateStore } from '../../src/cosmos/tenant-state-store.js';
import type { Clock } from '../../src/lib/clock.js';
import { snapshot } from '../support/cosmos-snapshot.js';
import { email, password } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/harness.js';
import { cloneHistory, seedTenant } from './seed.js';

const deleteAccount = (server: TestServer, token: string, confirmation: string) =>
  server.call('/api/v1/account/delete', { confirmation }, { token });

/** Every item of the tenant, container by container, as stored (ETags included: a rewrite shows). */
async function itemsOf(cosmos: CosmosStore, customerId: string): Promise<Record<string, unknown[]>> {
  const items: Record<string, unknown[]> = {};
  for (const { id } of containerDefinitions) {
    const { resources } = await cosmos
      .container(id)
      .items.query(
        { query: 'SELECT * FROM c WHERE c.customer_id = @cid', parameters: [{ name: '@cid', value: customerId }] },
        { partitionKey: customerId },
      )
      .fetchAll();
    items[id] = resources.sort((a, b) => String(a.id).localeCompare(String(b.id)));
  }
  return items;
}

async function blobsOf(server: TestServer, customerId: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of server.container.storage.forTenant(customerId).list('')) keys.push(object.key);
  return keys.sort();
}

async function auditEventsOf(server: TestServer, customerId: string): Promise<AuditEvent[]> {
  const events: AuditEvent[] = [];
  for await (const page of new AuditStore(server.cosmos.container('audit')).events(customerId, {}, 100)) events.push(...page);
  return events;
}

/** Waits until the tenant's audit head reaches `sequence` (validations write their events through an outbox). */
async function auditSettled(server: TestServer, customerId: string, sequence: number): Promise<void> {
  const audit = new AuditStore(server.cosmos.container('audit'));
  for (let waited = 0; ((await audit.readHead(customerId))?.sequence ?? 0) < sequence && waited < 10_000; waited += 50) await sleep(50);
}

async function credentialsRefused(server: TestServer, tokens: string[]): Promise<void> {
  for (const token of tokens) {
    const reply = await server.call('/auth/me', undefined, { token });
    assert.deepEqual([reply.status, reply.body.code], [401, 'invalid_token']);
  }
  const login = await server.call('/auth/login', {
    email: email('acme', 'admin'),
    password: password('acme', 'admin'),
    customer_id: 'acme',
  });
  assert.deepEqual([login.status, login.body.code], [401, 'invalid_credentials']);
  assert.match(login.body.detail, /or the account was closed/, 'a person who just closed the account is told why');
  const byKey = await server.call('/auth/me', server.apiKeyBody('acme', 'admin'));
  assert.deepEqual([byKey.status, byKey.body.code], [401, 'invalid_api_key']);
}

describe('a wrong confirmation', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test('answers 400 confirmation_mismatch and deletes nothing', async () => {
    const admin = await server.login('acme', 'admin');
    await seedTenant(server, admin);
    await auditSettled(server, 'acme', 2);
    const before = await snapshot(server.cosmos);
    const blobs = await blobsOf(server, 'acme');
    assert.ok(blobs.length >= 2);
    for (const confirmation of ['DELETE globex', 'delete acme', 'DELETE acme ', 'DELETE  acme', 'acme', '']) {
      const reply = await deleteAccount(server, admin, confirmation);
      assert.deepEqual([reply.status, reply.body.code], [400, 'confirmation_mismatch'], JSON.stringify(confirmation));
      assert.deepEqual(reply.body.errors, [{ pointer: '/confirmation', detail: 'must be exactly "DELETE acme"' }]);
    }
    const missing = await server.call('/api/v1/account/delete', {}, { token: admin });
    assert.deepEqual([missing.status, missing.body.code], [400, 'invalid_request']);
    assert.equal(await snapshot(server.cosmos), before);
    assert.deepEqual(await blobsOf(server, 'acme'), blobs);
    assert.equal((await server.call('/auth/me', undefined, { token: admin })).status, 200);
  });
});

describe('deleting acme', () => {
  let server: TestServer;
  let admin: string;
  let user: string;
  let before_: { acme: Record<string, unknown[]>; globex: string; globexBlobs: string[]; acmeBlobs: string[]; events: AuditEvent[] };
  let reply: Awaited<ReturnType<typeof deleteAccount>>;

  before(async () => {
    server = await startTestServer();
    admin = await server.login('acme', 'admin');
    user = await server.login('acme', 'user');
    await seedTenant(server, admin);
    // An idempotency record of acme's too.
    const replayable = await server.call(
      '/api/v1/validate',
      { mode: 'validate', question: 'Days?', chatbot_response: '25 days.', inline_text: 'Staff get 25 days.' },
      { token: user, headers: { 'idempotency-key': 'acme-validation-0001' } },
    );
    assert.equal(replayable.status, 200, replayable.text);
    await cloneHistory(server.cosmos.container('history'), 'acme', replayable.body.validation_id, 150);
    // globex has data of its own, which must not move.
    await seedTenant(server, await server.login('globex', 'admin'), { templates: false });
    await auditSettled(server, 'acme', 3);
    before_ = {
      acme: await itemsOf(server.cosmos, 'acme'),
      globex: JSON.stringify(await itemsOf(server.cosmos, 'globex')),
      globexBlobs: await blobsOf(server, 'globex'),
      acmeBlobs: await blobsOf(server, 'acme'),
      events: await auditEventsOf(server, 'acme'),
    };
    reply = await deleteAccount(server, admin, 'DELETE acme');
  });
  after(() => server.close());

  test('the seed put acme data in every container and in storage', () => {
    for (const container of ['users', 'history', 'idempotency', 'sources', 'templates', 'audit']) {
      assert.ok(before_.acme[container]!.length > 0, container);
    }
    const kinds = new Set(before_.acme.history!.map((item) => (item as { record?: string }).record));
    assert.ok(kinds.has('validation') && kinds.size > 1, `history holds records and their counts: ${[...kinds]}`);
    assert.ok(before_.acmeBlobs.some((key) => key.startsWith('sources/')) && before_.acmeBlobs.some((key) => key.startsWith('templates/')));
  });

  test('answers 200 with the time of deletion', () => {
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(Object.keys(reply.body).sort(), ['customer_id', 'deleted', 'deleted_at']);
    assert.deepEqual([reply.body.customer_id, reply.body.deleted], ['acme', true]);
  });

  test("every item of acme's partition is gone from every container but the audit trail and the account's state", async () => {
    const after_ = await itemsOf(server.cosmos, 'acme');
    for (const { id } of containerDefinitions) {
      if (id === 'audit' || id === 'tenant_state') continue;
      assert.deepEqual(after_[id], [], `${id} still holds acme items`);
    }
    assert.deepEqual(
      after_.tenant_state!.map((item) => (item as { state: string }).state),
      ['deleted'],
    );
  });

  test("acme's stored files are deleted", async () => {
    assert.deepEqual(await blobsOf(server, 'acme'), []);
  });

  test('the audit trail is intact, and its last event records the termination by the admin', async () => {
    const events = await auditEventsOf(server, 'acme');
    assert.deepEqual(events.slice(0, -1), before_.events);
    const last = events.at(-1)!;
    const adminId = (before_.acme.users!.find((u) => (u as { email?: string }).email === email('acme', 'admin')) as { id: string }).id;
    assert.deepEqual(
      [last.kind, last.sequence, last.prev_hash, last.actor.id, last.actor.role, last.validation_id, last.data],
      ['account_deleted', before_.events.at(-1)!.sequence + 1, before_.events.at(-1)!.hash, adminId, 'admin', null, {}],
    );
  });

  test("acme's tokens, logins and API keys are refused", async () => {
    await credentialsRefused(server, [admin, user]);
  });

  test('globex is untouched', async () => {
    assert.equal(JSON.stringify(await itemsOf(server.cosmos, 'globex')), before_.globex);
    assert.deepEqual(await blobsOf(server, 'globex'), before_.globexBlobs);
    const token = await server.login('globex', 'admin');
    assert.equal((await server.call('/api/v1/sources', {}, { token })).status, 200);
  });

  test('a restart does not bring acme back, and a later sweep deletes what a request admitted before the marker wrote', async () => {
    // As a validation that passed authentication just before the marker would, once the deletion had passed.
    await server.cosmos.container('history').items.create({ id: 'val_late0000000000000000000', customer_id: 'acme', record: 'validation' });
    await server.container.storage
      .forTenant('acme')
      .write('extracted/late/text.json', new TextEncoder().encode('{}'), { contentType: 'application/json' });
    const events = await auditEventsOf(server, 'acme');
    const later: Clock = { now: () => new Date(Date.now() + 10 * 60_000) };
    const restarted = await startTestServer({
      fixture: server.fixture,
      cosmos: server.cosmos,
      storage: server.container.storage,
      clock: later,
    });
    try {
      assert.deepEqual((await itemsOf(server.cosmos, 'acme')).users, []);
      await credentialsRefused(restarted, []);
      const state = new TenantStateStore(server.cosmos.container('tenant_state'));
      for (let waited = 0; !(await state.deletionMarker('acme'))?.swept_at && waited < 30_000; waited += 100) await sleep(100);
      assert.ok((await state.deletionMarker('acme'))?.swept_at);
    } finally {
      await restarted.close();
    }
    assert.deepEqual((await itemsOf(server.cosmos, 'acme')).history, []);
    assert.deepEqual(await blobsOf(server, 'acme'), []);
    assert.deepEqual(await auditEventsOf(server, 'acme'), events);
  });
});

describe('a deletion cut short halfway', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test('refuses the credentials at once, and recovery completes it with one final audit event', async () => {
    const admin = await server.login('acme', 'admin');
    const seeded = await seedTenant(server, admin);
    await cloneHistory(server.cosmos.container('history'), 'acme', seeded.validationIds[0]!, 250);
    await auditSettled(server, 'acme', 2);
    const events = await auditEventsOf(server, 'acme');
    const globex = JSON.stringify(await itemsOf(server.cosmos, 'globex'));

    // The history container fails on its second page of deletes.
    const history = server.cosmos.container('history').items;
    const batch = history.batch.bind(history);
    let batches = 0;
    history.batch = (async (...args: Parameters<typeof batch>) => {
      batches += 1;
      if (batches === 2) throw Object.assign(new Error('injected: the store went away'), { code: 500 });
      return batch(...args);
    }) as typeof history.batch;
    let reply: Awaited<ReturnType<typeof deleteAccount>>;
    try {
      reply = await deleteAccount(server, admin, 'DELETE acme');
    } finally {
      history.batch = batch;
    }
    assert.deepEqual([reply.status, reply.body.code], [500, 'internal_error']);
    assert.match(reply.body.detail, /completes the deletion/);
    await credentialsRefused(server, [admin]);
    const halfway = await itemsOf(server.cosmos, 'acme');
    assert.deepEqual(halfway.users, []);
    assert.ok(halfway.history!.length > 0 && halfway.history!.length < 250, `${halfway.history!.length} history items left`);
    assert.equal((await auditEventsOf(server, 'acme')).length, events.length, 'no termination event before the data is gone');

    // Another process starts later: the marker has not moved for longer than recovery waits.
    const later: Clock = { now: () => new Date(Date.now() + 10 * 60_000) };
    const recovering = await startTestServer({
      fixture: server.fixture,
      cosmos: server.cosmos,
      storage: server.container.storage,
      clock: later,
    });
    try {
      const state = new TenantStateStore(server.cosmos.container('tenant_state'));
      for (let waited = 0; (await state.deletionMarker('acme'))?.state !== 'deleted' && waited < 30_000; waited += 100) await sleep(100);
      assert.equal((await state.deletionMarker('acme'))?.state, 'deleted');
    } finally {
      await recovering.close();
    }
    const done = await itemsOf(server.cosmos, 'acme');
    for (const { id } of containerDefinitions) if (id !== 'audit' && id !== 'tenant_state') assert.deepEqual(done[id], [], id);
    assert.deepEqual(await blobsOf(server, 'acme'), []);
    const after = await auditEventsOf(server, 'acme');
    assert.deepEqual(after.slice(0, -1), events);
    assert.deepEqual(
      after.filter((e) => e.kind === 'account_deleted').map((e) => e.sequence),
      [events.length + 1],
    );
    assert.equal(JSON.stringify(await itemsOf(server.cosmos, 'globex')), globex);
  });
});
