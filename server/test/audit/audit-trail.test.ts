import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { AuditEvent } from '@groundcheck/contract';
import { AuditStore } from '../../src/cosmos/audit-store.js';
import { AuditExporter } from '../../src/services/audit/audit-export.js';
import { type AuditEntry, AuditTrail, actorOf } from '../../src/services/audit/audit-trail.js';
import { Pseudonyms } from '../../src/services/audit/pseudonyms.js';
import type { Principal } from '../../src/services/auth/principal.js';
import type { Tenant } from '../../src/tenants/tenant.js';
import { actors, at, auditFixture, day, entriesOfEveryKind, factsOf, historyTtlDays, tenantsOf } from '../support/audit.js';
import { startTestServer, type TestServer } from '../support/harness.js';

let server: TestServer;
let tenants: Record<string, Tenant>;
let acmeAdmin: string;
/** acme's trail: one event of every kind, on the days before today and today. */
let everyKind: AuditEvent[];
const eventDays = [-3, -2, -2, -1, -1, 0, 0, 0].map((offset) => day(offset));

before(async () => {
  server = await startTestServer({ fixture: await auditFixture() });
  tenants = tenantsOf(server.fixture);
  acmeAdmin = await server.login('acme', 'admin');
  // A clock the test controls, so the events fall on different days (appends must still come in time order).
  let clock = new Date(0);
  const trail = new AuditTrail(new AuditStore(server.cosmos.container('audit')), { now: () => clock });
  everyKind = [];
  for (const [index, entry] of entriesOfEveryKind().entries()) {
    clock = at(eventDays[index]!, `00:00:0${index}.000`);
    everyKind.push((await trail.append(tenants.acme!, entry))!);
  }
});
after(() => server.close());

const list = (body: object, token = acmeAdmin) => server.call('/api/v1/audit', body, { token });

describe('POST /api/v1/audit', () => {
  test('returns every kind with the facts of its kind, in sequence order', async () => {
    const reply = await list({ limit: 100 });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(reply.body, { data: everyKind, has_more: false, next_cursor: null });
    const entries = entriesOfEveryKind();
    reply.body.data.forEach((event: AuditEvent, index: number) => {
      assert.equal(event.sequence, index + 1);
      assert.equal(event.customer_id, 'acme');
      assert.equal(event.kind, entries[index]!.kind);
      assert.deepEqual(event.actor, entries[index]!.actor);
      assert.deepEqual(Object.keys(event.data).sort(), Object.keys(entries[index]!.data).sort());
      assert.equal(event.prev_hash, index === 0 ? '0'.repeat(64) : everyKind[index - 1]!.hash);
      assert.match(event.event_id, /^aud_[0-9A-Z]{26}$/);
    });
    assert.deepEqual(reply.body.data[2]!.data, { note: 'Checked against the 2026 handbook.' });
    assert.deepEqual(reply.body.data[5]!.data, { external_reference: 'LEGAL-4711', note: 'Needs legal.' });
  });

  test('filters by kind, actor, validation and day, and pages with a cursor', async () => {
    const sequences = async (body: object) => {
      const reply = await list(body);
      assert.equal(reply.status, 200, reply.text);
      return reply.body.data.map((event: AuditEvent) => event.sequence);
    };
    assert.deepEqual(await sequences({ kinds: ['approved', 'rejected'] }), [3, 4]);
    assert.deepEqual(await sequences({ actor_id: actors.integration.id }), [7, 8]);
    assert.deepEqual(await sequences({ validation_id: everyKind[0]!.validation_id }), [1, 2, 3, 4, 5, 6, 7, 8]);
    assert.deepEqual(await sequences({ validation_id: 'val_0000000000000000NOTFOUND' }), []);
    assert.deepEqual(await sequences({ date_from: day(-2), date_to: day(-1) }), [2, 3, 4, 5]);
    assert.deepEqual(await sequences({ date_from: day(-1) }), [4, 5, 6, 7, 8]);
    assert.deepEqual(await sequences({ date_to: day(-3) }), [1]);
    assert.deepEqual(await sequences({ kinds: ['edited', 'approved'], date_from: day(-1) }), [5]);

    const pages: number[][] = [];
    let cursor: string | undefined;
    do {
      const reply = await list({ limit: 3, ...(cursor ? { cursor } : {}) });
      pages.push(reply.body.data.map((event: AuditEvent) => event.sequence));
      assert.equal(reply.body.has_more, reply.body.next_cursor !== null);
      cursor = reply.body.next_cursor ?? undefined;
    } while (cursor);
    assert.deepEqual(pages, [
      [1, 2, 3],
      [4, 5, 6],
      [7, 8],
    ]);
  });

  test('answers a bad cursor, a date that does not exist and a reversed range with 400', async () => {
    for (const [body, pointer] of [
      [{ cursor: 'bm90LWEtY3Vyc29y' }, '/cursor'],
      [{ cursor: Buffer.from('after:0').toString('base64url') }, '/cursor'],
      [{ date_from: '2026-02-30' }, '/date_from'],
      [{ date_from: day(0), date_to: day(-1) }, '/date_to'],
    ] as const) {
      const reply = await list(body);
      assert.equal(reply.status, 400, JSON.stringify(body));
      assert.equal(reply.body.code, 'invalid_request');
      assert.ok(
        reply.body.errors.some((e: { pointer: string }) => e.pointer === pointer),
        reply.text,
      );
    }
  });

  test("never shows another tenant's events", async () => {
    const tiny = tenantsOf(server.fixture).tiny!;
    const own = await server.services.audit.trail.append(tiny, {
      kind: 'approved',
      actor: actors.admin,
      validationId: everyKind[0]!.validation_id,
      data: { note: 'tiny' },
    });
    const tinyReply = await list({ limit: 100 }, await server.login('tiny', 'admin'));
    assert.deepEqual(tinyReply.body.data, [own], "tiny's trail starts at 1 and holds only its own event");
    assert.equal(own!.sequence, 1);
    // Filtering by acme's validation id or actor does not reach across either.
    const crossed = await server.call('/api/v1/audit', {
      ...server.apiKeyBody('tiny', 'admin'),
      validation_id: everyKind[0]!.validation_id,
      actor_id: actors.admin.id,
    });
    assert.deepEqual(
      crossed.body.data.map((e: AuditEvent) => e.customer_id),
      ['tiny'],
    );
    const acmeReply = await list({ limit: 100 });
    assert.ok(acmeReply.body.data.every((event: AuditEvent) => event.customer_id === 'acme'));
  });

  test('needs the admin role; accepts an admin API key', async () => {
    const asUser = await list({}, await server.login('acme', 'user'));
    assert.equal(asUser.status, 403);
    assert.equal(asUser.body.code, 'insufficient_role');
    const withKey = await server.call('/api/v1/audit', { ...server.apiKeyBody('acme', 'admin'), kinds: ['validation_created'] });
    assert.equal(withKey.status, 200);
    assert.deepEqual(withKey.body.data, [everyKind[0]]);
  });
});

describe('retention', () => {
  test("stores each event with the tenant's audit_retention_days as ttl, longer than history's", async () => {
    const container = server.cosmos.container('audit');
    const acmeItem = (await container.item(everyKind[0]!.event_id, 'acme').read()).resource;
    assert.equal(acmeItem.ttl, 400 * 86400, 'acme sets audit_retention_days: 400');
    assert.equal(Date.parse(everyKind[0]!.expires_at) - Date.parse(everyKind[0]!.occurred_at), 400 * 86400 * 1000);

    const initechEvent = (await server.services.audit.trail.append(tenants.initech!, entriesOfEveryKind()[2]!))!;
    const initechItem = (await container.item(initechEvent.event_id, 'initech').read()).resource;
    assert.equal(initechItem.ttl, 365 * 86400, 'the default retention is 365 days');
    assert.equal(Date.parse(initechEvent.expires_at) - Date.parse(initechEvent.occurred_at), 365 * 86400 * 1000);

    for (const ttl of [acmeItem.ttl, initechItem.ttl]) assert.ok(ttl > historyTtlDays * 86400, 'audit events outlive history');
    const { resources: withoutTtl } = await container.items
      .query({ query: 'SELECT * FROM c WHERE c.customer_id = @c AND NOT IS_DEFINED(c.ttl)', parameters: [{ name: '@c', value: 'acme' }] })
      .fetchAll();
    assert.deepEqual(
      withoutTtl.map((item) => item.record),
      ['audit_head'],
      'only the head document, which must never expire, has no ttl',
    );
  });
});

describe('append', () => {
  test('numbers events without gaps when appends of one process overlap', async () => {
    const appended = await Promise.all(entriesOfEveryKind().map((entry) => server.services.audit.trail.append(tenants.initech!, entry)));
    const sequences = appended.map((event) => event!.sequence).sort((a, b) => a - b);
    const first = sequences[0]!;
    assert.deepEqual(
      sequences,
      sequences.map((_, i) => first + i),
    );
    const initech = await server.call('/api/v1/audit', { ...server.apiKeyBody('initech', 'admin'), limit: 100 });
    assert.deepEqual(
      initech.body.data.map((e: AuditEvent) => e.sequence),
      Array.from({ length: initech.body.data.length }, (_, i) => i + 1),
    );
  });

  test('writes nothing for a tenant without the audit_trail feature, whose audit routes answer 403', async () => {
    const globex = tenantsOf(server.fixture).globex!;
    assert.equal(await server.services.audit.trail.append(globex, entriesOfEveryKind()[2]!), null);
    const { resources } = await server.cosmos
      .container('audit')
      .items.query({ query: 'SELECT * FROM c WHERE c.customer_id = @c', parameters: [{ name: '@c', value: 'globex' }] })
      .fetchAll();
    assert.deepEqual(resources, []);
    const token = await server.login('globex', 'admin');
    for (const path of ['/api/v1/audit', '/api/v1/audit/export', '/api/v1/system-card']) {
      const reply = await server.call(path, {}, { token });
      assert.equal(reply.status, 403, path);
      assert.equal(reply.body.code, 'feature_disabled', path);
    }
  });

  test('refuses facts that section 2.4 does not list for the kind, and strips extra fields of nested facts', async () => {
    const trail = server.services.audit.trail;
    const validationId = everyKind[0]!.validation_id!;
    const leaks = [
      { kind: 'approved', actor: actors.admin, validationId, data: { note: 'ok', question: 'What is the notice period?' } },
      {
        kind: 'validation_created',
        actor: actors.admin,
        validationId,
        data: { ...everyKind[0]!.data, api_key: 'gck_AAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB' },
      },
      { kind: 'rejected', actor: actors.admin, validationId, data: {} },
      { kind: 'review_handed_off', actor: actors.admin, validationId, data: { note: 'no reference' } },
    ] as unknown as AuditEntry[];
    const tiny = tenantsOf(server.fixture).tiny!;
    const before = (await list({ limit: 100 }, await server.login('tiny', 'admin'))).body.data.length;
    for (const entry of leaks)
      await assert.rejects(trail.append(tiny, entry), /unexpected facts|missing facts/, JSON.stringify(entry.data));

    const created = entriesOfEveryKind(validationId)[0] as Extract<AuditEntry, { kind: 'validation_created' }>;
    const withContent = {
      ...created,
      data: {
        ...created.data,
        sources: created.data.sources.map((source) => ({ ...source, content: 'The notice period is 30 days.', source_id: 'src_1' })),
      },
    };
    const stored = await trail.append(tiny, withContent);
    assert.deepEqual(factsOf(stored!).sources, created.data.sources);
    const after = (await list({ limit: 100 }, await server.login('tiny', 'admin'))).body.data;
    assert.equal(after.length, before + 1, 'the refused entries wrote nothing');
    assert.doesNotMatch(JSON.stringify(after), /notice period is 30|src_1/);
  });

  test('records a caller by id, type, name and role; an API key by its public id, never its secret', async () => {
    const tiny = tenantsOf(server.fixture).tiny!;
    const key = server.apiKeyBody('tiny', 'admin').api_key;
    const callers = [
      {
        type: 'user',
        id: 'usr_01JD3XD5E6F7G8H9J0K1M2N3P4',
        name: 'Uma User',
        email: 'uma@tiny.test',
        role: 'user',
        dataAccessRoles: ['hr'],
        authentication: 'local',
        expiresAt: null,
        tenant: tiny,
      },
      {
        type: 'api_key',
        id: `key_${key.slice(4, 12)}`,
        name: null,
        email: null,
        role: 'admin',
        dataAccessRoles: [],
        authentication: 'api_key',
        expiresAt: null,
        tenant: tiny,
      },
    ] satisfies Principal[];
    for (const caller of callers) {
      const event = await server.services.audit.trail.append(tiny, {
        kind: 'approved',
        actor: actorOf(caller),
        validationId: null,
        data: { note: 'ok' },
      });
      assert.deepEqual(event!.actor, { type: caller.type, id: caller.id, name: caller.name, role: caller.role });
    }
    const trail = (await list({ limit: 100 }, await server.login('tiny', 'admin'))).text;
    assert.ok(!trail.includes('uma@tiny.test') && !trail.includes(key));
  });

  test('offers no way to change or delete an event', () => {
    const changes = /update|delete|remove|replace|upsert|patch|purge|truncate|overwrite/i;
    for (const type of [AuditStore, AuditTrail, AuditExporter, Pseudonyms]) {
      const methods = Object.getOwnPropertyNames(type.prototype).filter((name) => name !== 'constructor');
      assert.deepEqual(
        methods.filter((name) => changes.test(name)),
        [],
        type.name,
      );
    }
    assert.deepEqual(Object.getOwnPropertyNames(AuditStore.prototype).sort(), [
      'append',
      'constructor',
      'createPseudonymSecret',
      'events',
      'hasEventKey',
      'readHead',
      'readPseudonymSecret',
    ]);
    // The only Cosmos writes: creates (the head's first version, events, their keys), and the
    // ETag-guarded replace of the head document.
    const source = readFileSync(new URL('../../src/cosmos/audit-store.ts', import.meta.url), 'utf8');
    assert.doesNotMatch(source, /\.(delete|upsert|patch|replace)\(|'(Delete|Upsert|Patch)'/);
    assert.deepEqual(source.match(/operationType: '\w+'/g)?.sort(), [
      "operationType: 'Create'",
      "operationType: 'Create'",
      "operationType: 'Create'",
      "operationType: 'Replace'",
    ]);
    assert.match(source, /operationType: 'Replace', id: headId, partitionKey: customerId, ifMatch: expected\.etag/);
  });
});

describe('POST /api/v1/system-card', () => {
  test("describes the service with the tenant's retention and region, to any role", async () => {
    const reply = await server.call('/api/v1/system-card', {}, { token: await server.login('acme', 'viewer') });
    assert.equal(reply.status, 200, reply.text);
    const card = reply.body;
    assert.equal(card.schema_version, '1.0');
    assert.equal(card.service.name, 'Groundcheck');
    assert.deepEqual(card.data_handling.audit_retention_days, 400);
    assert.deepEqual(card.data_handling.history_retention_days, historyTtlDays);
    assert.equal(card.region, 'westeurope');
    assert.deepEqual(card.operating_point, { supported_score: 0.5, fitted_to_tenant: false, applied_at: null, calibration: 'suggest' });
    assert.deepEqual(card.schema_versions, { api: 'v1', audit_event: '1', audit_export: '1.0', webhook: '1' });
    for (const never of ['source content', 'credentials', 'API keys', 'passwords', 'payment data', 'technical runtime logs']) {
      assert.ok(card.data_handling.audit_trail_never_records.includes(never), never);
    }
    assert.ok(card.not_done.length > 0 && card.known_limitations.length > 0 && card.capabilities.length > 0);
    assert.ok(card.validation_method.name && card.validation_method.version);
    // The deployment's default verifier, as every result of this tenant reports it.
    assert.deepEqual([card.validation_method.verifier.name, card.validation_method.verifier.model], ['onnx', 'local']);
    assert.match(card.validation_method.verifier.description, /No text leaves the deployment/);

    const initech = await server.call('/api/v1/system-card', server.apiKeyBody('initech', 'admin'));
    assert.equal(initech.body.data_handling.audit_retention_days, 365);
    assert.equal(initech.body.region, 'local');
  });
});
