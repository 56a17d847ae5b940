import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AuditEvent } from '@groundcheck/contract';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { rawSpec } from '../../../test/support/spec.js';
import { AuditStore } from '../../src/cosmos/audit-store.js';
import { type AuditEntry, AuditTrail } from '../../src/services/audit/audit-trail.js';
import type { Tenant } from '../../src/tenants/tenant.js';
import {
  actors,
  at,
  auditExportValidator,
  auditFixture,
  day,
  entriesOfEveryKind,
  factsOf,
  parseCsv,
  seedChain,
  tenantsOf,
} from '../support/audit.js';
import { type Reply, startTestServer, type TestServer } from '../support/harness.js';

let server: TestServer;
let tenants: Record<string, Tenant>;
let validExport: ValidateFunction;
/** acme's trail: an event of every kind, placed around the edges of the default 30-day window. */
let acmeEvents: AuditEvent[];
const acmeTimes = [
  [-40, '12:00:00.000'],
  [-30, '23:59:59.999'], // the last instant before the default window
  [-29, '00:00:00.000'], // its first instant
  [-20, '12:00:00.000'],
  [-10, '12:00:00.000'],
  [-5, '12:00:00.000'],
  [0, '00:00:00.000'],
  [0, '00:00:00.001'],
] as const;
/** Cells a spreadsheet would run as formulas, and one that needs RFC 4180 quoting. */
const hostileReferences = [
  '=HYPERLINK("https://evil.example","open")',
  '+SUM(1,2)',
  '-2+3',
  '@cmd',
  '\tTAB',
  'plain, with "quotes"\r\nand a line break',
];

before(async () => {
  server = await startTestServer({ fixture: await auditFixture() });
  tenants = tenantsOf(server.fixture);
  validExport = await auditExportValidator();
  let clock = new Date(0);
  const trail = new AuditTrail(new AuditStore(server.cosmos.container('audit')), { now: () => clock });
  acmeEvents = [];
  for (const [index, entry] of entriesOfEveryKind().entries()) {
    const [offset, time] = acmeTimes[index]!;
    clock = at(day(offset), time);
    acmeEvents.push((await trail.append(tenants.acme!, entry))!);
  }
  for (const reference of hostileReferences) {
    await server.services.audit.trail.append(tenants.tiny!, {
      kind: 'review_handed_off',
      actor: actors.admin,
      validationId: null,
      data: { external_reference: reference },
    });
  }
});
after(() => server.close());

const exportAs = (customerId: string, body: object = {}) =>
  server.call('/api/v1/audit/export', { ...server.apiKeyBody(customerId, 'admin'), ...body });
const sequences = (reply: Reply) => reply.body.events.map((event: { sequence: number }) => event.sequence);

function assertValidExport(reply: Reply) {
  assert.equal(reply.status, 200, reply.text);
  assert.equal(reply.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.ok(validExport(reply.body), JSON.stringify(validExport.errors));
}

describe('POST /api/v1/audit/export as JSON', () => {
  test('exports the last 30 days in profile enterprise_v1 by default, without free text or actor ids', async () => {
    const reply = await server.call('/api/v1/audit/export', undefined, { token: await server.login('acme', 'admin') });
    assertValidExport(reply);
    assert.equal(reply.headers.get('content-disposition'), `attachment; filename=audit-acme-${day(-29)}-${day(0)}.json`);
    assert.deepEqual(
      { ...reply.body, generated_at: null, events: null },
      {
        schema_version: '1.0',
        profile: 'enterprise_v1',
        customer_id: 'acme',
        generated_at: null,
        date_from: day(-29),
        date_to: day(0),
        events: null,
      },
    );
    assert.deepEqual(sequences(reply), [3, 4, 5, 6, 7, 8]);
    const note = (sequence: number) => (factsOf(acmeEvents[sequence - 1]!).note ?? '').length;
    assert.deepEqual(
      reply.body.events.map((event: { payload_summary: object }) => event.payload_summary),
      [
        { note_present: true, note_chars: note(3) },
        { note_present: true, note_chars: note(4) },
        { note_present: true, note_chars: note(5), correction_count: 1 },
        { external_reference: 'LEGAL-4711', note_present: true, note_chars: note(6) },
        { external_reference: 'LEGAL-4711', note_present: false, note_chars: 0 },
        { external_reference: 'LEGAL-4712', note_present: true, note_chars: note(8) },
      ],
    );
    for (const event of reply.body.events) {
      const stored = acmeEvents[event.sequence - 1]!;
      assert.deepEqual(
        {
          event_id: event.event_id,
          kind: event.kind,
          occurred_at: event.occurred_at,
          actor_role: event.actor_role,
          actor_type: event.actor_type,
          validation_id: event.validation_id,
          prev_hash: event.prev_hash,
          hash: event.hash,
        },
        {
          event_id: stored.event_id,
          kind: stored.kind,
          occurred_at: stored.occurred_at,
          actor_role: stored.actor.role,
          actor_type: stored.actor.type,
          validation_id: stored.validation_id,
          prev_hash: stored.prev_hash,
          hash: stored.hash,
        },
      );
    }
    for (const secret of [
      'notice period',
      'Needs legal',
      'Outdated',
      '30 days, not 14',
      actors.admin.id,
      actors.reviewer.id,
      actors.integration.id,
      'Avery',
      'Uma',
    ]) {
      assert.ok(!reply.text.includes(secret), `"${secret}" must not be exported`);
    }
  });

  test('summarises a validation by sizes, groups and source references and hashes', async () => {
    const reply = await exportAs('acme', { date_from: day(-40), date_to: day(-30) });
    assertValidExport(reply);
    const created = acmeEvents[0]!;
    assert.deepEqual(
      reply.body.events.map((event: { payload_summary: object }) => event.payload_summary),
      [
        {
          mode: 'validate',
          request_summary: factsOf(created).request_summary,
          source_group_count: 1,
          source_refs: factsOf(created).sources,
          confidence_level: 'low',
          issue_count: 1,
        },
        { review_state: 'pending_review' },
      ],
    );
  });

  test('exports raw events exactly as the query returns them', async () => {
    const body = { date_from: day(-40), date_to: day(-29) };
    const reply = await exportAs('acme', { ...body, profile: 'raw' });
    assertValidExport(reply);
    assert.equal(reply.body.profile, 'raw');
    assert.ok(!('schema_version' in reply.body));
    const listed = await server.call('/api/v1/audit', { ...server.apiKeyBody('acme', 'admin'), ...body });
    assert.deepEqual(reply.body.events, listed.body.data);
    assert.deepEqual(reply.body.events, acmeEvents.slice(0, 3));
  });

  test('takes explicit dates over days, whole UTC days inclusive', async () => {
    const cases: [object, string, string, number[]][] = [
      [{ date_from: day(-10) }, day(-10), day(0), [5, 6, 7, 8]],
      [{ date_to: day(-20), days: 10 }, day(-29), day(-20), [3, 4]],
      [{ days: 1 }, day(0), day(0), [7, 8]],
      [{ days: 3650 }, day(-3649), day(0), [1, 2, 3, 4, 5, 6, 7, 8]],
      [{ date_from: day(-30), date_to: day(-30), days: 1 }, day(-30), day(-30), [2]],
      [{ date_from: day(-29), date_to: day(-29) }, day(-29), day(-29), [3]],
    ];
    for (const [body, from, to, expected] of cases) {
      const reply = await exportAs('acme', body);
      assertValidExport(reply);
      assert.deepEqual([reply.body.date_from, reply.body.date_to, sequences(reply)], [from, to, expected], JSON.stringify(body));
    }
  });

  test('answers a reversed range, an impossible date, an unknown profile and other bad input with 400', async () => {
    const cases: [object, string][] = [
      [{ date_from: day(0), date_to: day(-1) }, '/date_to'],
      [{ date_from: '2026-02-30' }, '/date_from'],
      [{ date_to: '2026-13-01' }, '/date_to'],
      [{ date_from: '21-11-2026' }, '/date_from'],
      [{ date_from: day(1) }, '/date_from'],
      [{ profile: 'enterprise_v2' }, '/profile'],
      [{ format: 'xml' }, '/format'],
      [{ days: 0 }, '/days'],
      [{ days: 3651 }, '/days'],
    ];
    for (const [body, pointer] of cases) {
      const reply = await exportAs('acme', body);
      assert.equal(reply.status, 400, JSON.stringify(body));
      assert.equal(reply.headers.get('content-type'), 'application/problem+json; charset=utf-8');
      assert.equal(reply.headers.get('content-disposition'), null);
      assert.ok(
        reply.body.errors.some((e: { pointer: string }) => e.pointer === pointer),
        `${JSON.stringify(body)}: ${reply.text}`,
      );
    }
  });
});

describe('POST /api/v1/audit/export as CSV', () => {
  const contractHeader = () => {
    const example = (rawSpec().paths!['/api/v1/audit/export']!.post!.responses!['200'] as { content: Record<string, { example: string }> })
      .content['text/csv']!.example;
    return example.split('\r\n')[0]!.split(',');
  };

  test('writes one row per event under the contract header, matching the JSON export', async () => {
    const [csv, json] = await Promise.all([exportAs('acme', { format: 'csv' }), exportAs('acme')]);
    assert.equal(csv.status, 200, csv.text);
    assert.equal(csv.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.equal(csv.headers.get('content-disposition'), `attachment; filename=audit-acme-${day(-29)}-${day(0)}.csv`);
    const [header, ...rows] = parseCsv(csv.text);
    assert.deepEqual(header, contractHeader());
    assert.equal(rows.length, json.body.events.length);
    rows.forEach((row, index) => {
      const event = json.body.events[index];
      const summary = event.payload_summary;
      assert.deepEqual(row, [
        '1.0',
        event.event_id,
        String(event.sequence),
        event.kind,
        event.occurred_at,
        event.actor_ref,
        event.actor_role,
        event.actor_type,
        event.validation_id ?? '',
        summary.mode ?? '',
        summary.confidence_level ?? '',
        summary.issue_count?.toString() ?? '',
        summary.external_reference ?? '',
        event.hash,
      ]);
    });
  });

  test('profile raw shows the actor id in place of the pseudonym and has no schema_version column', async () => {
    const reply = await exportAs('acme', { format: 'csv', profile: 'raw', days: 3650 });
    assert.equal(reply.status, 200, reply.text);
    const [header, ...rows] = parseCsv(reply.text);
    assert.deepEqual(
      header,
      contractHeader()
        .filter((column) => column !== 'schema_version')
        .map((column) => (column === 'actor_ref' ? 'actor_id' : column)),
    );
    assert.deepEqual(
      rows.map((row) => row[4]),
      acmeEvents.map((event) => event.actor.id),
    );
    assert.deepEqual(rows[0]!.slice(7, 11), [acmeEvents[0]!.validation_id, 'validate', 'low', '1']);
  });

  test('prefixes cells that start like a formula with an apostrophe and quotes as RFC 4180 asks', async () => {
    for (const profile of ['enterprise_v1', 'raw']) {
      const reply = await exportAs('tiny', { format: 'csv', profile, days: 1 });
      assert.equal(reply.status, 200, reply.text);
      const [header, ...rows] = parseCsv(reply.text);
      const column = header!.indexOf('external_reference');
      assert.deepEqual(
        rows.map((row) => row[column]),
        hostileReferences.map((reference, i) => (i < 5 ? `'${reference}` : reference)),
        profile,
      );
    }
    const raw = await exportAs('tiny', { format: 'csv', profile: 'raw', days: 1 });
    assert.ok(raw.text.includes(`,"'=HYPERLINK(""https://evil.example"",""open"")",`));
    assert.ok(raw.text.includes(`,"plain, with ""quotes""\r\nand a line break",`));
  });
});

describe('pseudonyms and tenants', () => {
  test('actor_ref is a keyed pseudonym: stable, one per actor, different per tenant, not a plain hash', async () => {
    const [first, second] = [await exportAs('acme', { days: 3650 }), await exportAs('acme', { days: 3650 })];
    const refs = first.body.events.map((event: { actor_ref: string }) => event.actor_ref);
    assert.deepEqual(
      second.body.events.map((event: { actor_ref: string }) => event.actor_ref),
      refs,
      'stable across exports',
    );
    const byActor = new Map(acmeEvents.map((event, i) => [event.actor.id, refs[i]]));
    assert.equal(new Set(byActor.values()).size, byActor.size, 'one pseudonym per actor');
    acmeEvents.forEach((event, i) => assert.equal(refs[i], byActor.get(event.actor.id)));

    const adminInAcme = byActor.get(actors.admin.id);
    const tiny = await exportAs('tiny', { days: 1 });
    assert.equal(tiny.status, 200);
    const adminInTiny = tiny.body.events[0].actor_ref;
    assert.notEqual(adminInTiny, adminInAcme, 'the same actor id gets another pseudonym in another tenant');
    assert.notEqual(adminInAcme, `act_${createHash('sha256').update(actors.admin.id).digest('hex').slice(0, 32)}`);
  });

  test("the tenant's pseudonym secret never leaves Cosmos", async () => {
    const { resource } = await server.cosmos.container('audit').item('pseudonym_secret', 'acme').read();
    const secret = Buffer.from(resource.secret, 'base64');
    assert.equal(secret.length, 32);
    const bodies = [
      (await exportAs('acme', { days: 3650 })).text,
      (await exportAs('acme', { days: 3650, profile: 'raw' })).text,
      (await exportAs('acme', { days: 3650, format: 'csv' })).text,
      (await server.call('/api/v1/audit', { ...server.apiKeyBody('acme', 'admin'), limit: 100 })).text,
      (await server.call('/api/v1/system-card', server.apiKeyBody('acme', 'admin'))).text,
    ];
    for (const body of bodies) {
      for (const form of [resource.secret, secret.toString('hex'), secret.toString('base64url')]) assert.ok(!body.includes(form));
      assert.doesNotMatch(body, /pseudonym_secret|audit_head/);
    }
  });

  test("exports hold only the caller's tenant", async () => {
    const tiny = await exportAs('tiny', { profile: 'raw', days: 3650 });
    assert.deepEqual(new Set(tiny.body.events.map((event: AuditEvent) => event.customer_id)), new Set(['tiny']));
    assert.deepEqual(sequences(tiny), [1, 2, 3, 4, 5, 6]);
    const acme = await exportAs('acme', { profile: 'raw', days: 3650, format: 'csv' });
    assert.ok(!acme.text.includes('HYPERLINK'));
  });
});

describe('streaming', () => {
  before(async () => {
    const now = Date.now();
    const approval: AuditEntry = { kind: 'approved', actor: actors.admin, validationId: null, data: { note: 'bulk' } };
    await seedChain(new AuditStore(server.cosmos.container('audit')), tenants.initech!, 1001, (index) => ({
      entry: approval,
      at: new Date(now - 1001 + index),
    }));
  });

  const exportInitech = () =>
    fetch(`${server.url}/api/v1/audit/export`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(server.apiKeyBody('initech', 'admin')),
    });

  test('starts the response before the last event is read from Cosmos', async () => {
    // Hold every Cosmos page after the first until the test has seen the first bytes of the body.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const pagesRead = interceptPages((page) => (page > 0 ? held : Promise.resolve()));
    try {
      const response = await within(exportInitech());
      assert.equal(response.status, 200);
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let text = decoder.decode((await within(reader.read())).value, { stream: true });
      assert.match(text, /^\{"schema_version":"1.0","profile":"enterprise_v1","customer_id":"initech",/);
      assert.equal(pagesRead(), 1, 'only the first page was read when the first bytes arrived');
      release();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value, { stream: true });
      const exported = JSON.parse(text) as { events: { sequence: number }[] };
      assert.ok(validExport(exported), JSON.stringify(validExport.errors));
      assert.deepEqual(
        exported.events.map((event) => event.sequence),
        Array.from({ length: 1001 }, (_, i) => i + 1),
      );
      assert.equal(pagesRead(), 3, 'pages of 500');
    } finally {
      release();
      restorePages();
    }
  });

  test('answers a store failure before the first byte with a problem, and cuts the connection after it', async () => {
    const failAt = (failing: number) =>
      interceptPages((page) => (page === failing ? Promise.reject(new Error('Cosmos is gone')) : Promise.resolve()));
    try {
      failAt(0);
      const early = await exportInitech();
      assert.equal(early.status, 500);
      assert.equal(early.headers.get('content-type'), 'application/problem+json; charset=utf-8');
      assert.equal((await early.json()).code, 'internal_error');
      restorePages();

      failAt(1);
      const late = await exportInitech();
      assert.equal(late.status, 200);
      await assert.rejects(late.text(), 'a cut-off document must not read as complete');
    } finally {
      restorePages();
    }
  });
});

/** Runs `beforePage(n)` before the audit container's n-th page of every query is fetched; returns how many pages were read. */
function interceptPages(beforePage: (page: number) => Promise<void>): () => number {
  const items = server.cosmos.container('audit').items;
  const query = items.query.bind(items);
  let pagesRead = 0;
  items.query = ((...args: Parameters<typeof query>) => {
    const pages = query(...args);
    const fetchNext = pages.fetchNext.bind(pages);
    let page = 0;
    pages.fetchNext = async () => {
      await beforePage(page++);
      const result = await fetchNext();
      pagesRead += 1;
      return result;
    };
    return pages;
  }) as typeof items.query;
  return () => pagesRead;
}

function restorePages() {
  Reflect.deleteProperty(server.cosmos.container('audit').items, 'query');
}

/** Fails instead of hanging when the server holds the response back. */
function within<T>(promise: Promise<T>, ms = 5000): Promise<T> {
  return Promise.race([promise, sleep(ms).then(() => Promise.reject(new Error(`nothing arrived within ${ms} ms`)))]);
}
