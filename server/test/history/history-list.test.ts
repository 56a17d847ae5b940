// POST /api/v1/history through HTTP: every filter of decision row 33 against the records a test
// seeded, newest first; keyset pages that stay exact while validations keep arriving; bounds and
// bad cursors; and who sees which records (services/history/visibility.ts).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Actor, ValidationRecord } from '@groundcheck/contract';
import { newId } from '../../src/lib/ids.js';
import { day, tenantsOf } from '../support/audit.js';
import { writeFixture } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/harness.js';
import { type Credentials, callAs, recordValidation, review, validateInline } from '../support/history.js';

let server: TestServer;

before(async () => {
  const fixture = await writeFixture({
    overrides: {
      acme: { audit_retention_days: 400, workflow: { review_required: 'when_issues' } },
      tiny: { rate_limit: { requests: 100000, window_seconds: 60 }, workflow: { review_required: 'when_issues' } },
    },
  });
  server = await startTestServer({ fixture });
});
after(() => server.close());

const tenant = (customerId: string) => tenantsOf(server.fixture)[customerId]!;
const actor = (name: string): Actor => ({ type: 'user', id: newId('usr', Date.now()), name, role: 'user' });

/** Every record the query matches, page after page, with the pages' sizes. */
async function listAll(credentials: Credentials, query: object, limit: number): Promise<{ ids: string[]; pages: number[] }> {
  const ids: string[] = [];
  const pages: number[] = [];
  let cursor: string | null = null;
  do {
    const reply = await callAs(server, '/api/v1/history', credentials, { ...query, limit, ...(cursor ? { cursor } : {}) });
    assert.equal(reply.status, 200, reply.text);
    ids.push(...reply.body.data.map((r: ValidationRecord) => r.validation_id));
    pages.push(reply.body.data.length);
    assert.equal(reply.body.has_more, reply.body.next_cursor !== null);
    cursor = reply.body.next_cursor;
  } while (cursor);
  return { ids, pages };
}

const newestFirst = (a: ValidationRecord, b: ValidationRecord) =>
  b.created_at.localeCompare(a.created_at) || b.validation_id.localeCompare(a.validation_id);

describe('filters', () => {
  const modes = ['validate', 'generate', 'validate_and_fix'] as const;
  const levels = ['high', 'medium', 'low'] as const;
  let seeded: ValidationRecord[];
  let people: Actor[];
  const admin = () => server.apiKeyBody('tiny', 'admin');

  before(async () => {
    people = [actor('Ada'), actor('Bo')];
    seeded = [];
    // 4 days × 6 records: each mode, level and person; issues on every other one (review required then).
    for (let i = 0; i < 24; i += 1) {
      const createdAt = new Date(`${day(-(i % 4))}T${String(8 + (i % 6)).padStart(2, '0')}:15:00.000Z`);
      const issues = i % 2 === 0 ? ['an issue'] : [];
      seeded.push(
        await recordValidation(server, tenant('tiny'), {
          createdAt,
          user: people[i % 2]!,
          mode: modes[i % 3]!,
          confidenceLevel: levels[Math.floor(i / 3) % 3]!,
          issues,
        }),
      );
    }
    // Two reviews, so review_state has more than pending and not required to filter on.
    const pending = seeded.filter((r) => r.review.state === 'pending_review');
    for (const record of pending.slice(0, 2)) {
      const reply = await review(server, admin(), record.validation_id, { action: 'approve', note: 'Fine.' });
      assert.equal(reply.status, 200, reply.text);
      seeded[seeded.indexOf(record)] = reply.body;
    }
  });

  const queries: [string, object, (r: ValidationRecord) => boolean][] = [
    ['no filter', {}, () => true],
    ['user', { user_id: 'Ada' }, (r) => r.user.name === 'Ada'],
    ['mode', { mode: 'generate' }, (r) => r.mode === 'generate'],
    ['confidence level', { confidence_level: 'medium' }, (r) => r.confidence_level === 'medium'],
    ['review state', { review_state: 'pending_review' }, (r) => r.review.state === 'pending_review'],
    ['review state approved', { review_state: 'approved' }, (r) => r.review.state === 'approved'],
    [
      'date range',
      { date_from: day(-2), date_to: day(-1) },
      (r) => r.created_at.slice(0, 10) >= day(-2) && r.created_at.slice(0, 10) <= day(-1),
    ],
    ['date_from alone', { date_from: day(-1) }, (r) => r.created_at.slice(0, 10) >= day(-1)],
    ['date_to alone', { date_to: day(-3) }, (r) => r.created_at.slice(0, 10) <= day(-3)],
    [
      'all at once',
      { user_id: 'Bo', mode: 'validate', confidence_level: 'high', review_state: 'not_required', date_from: day(-3), date_to: day(0) },
      (r) => r.user.name === 'Bo' && r.mode === 'validate' && r.confidence_level === 'high' && r.review.state === 'not_required',
    ],
  ];

  for (const [name, query, matches] of queries) {
    test(`${name}: exactly the matching records, newest first`, async () => {
      const resolved = 'user_id' in query ? { ...query, user_id: people.find((p) => p.name === query.user_id)!.id } : query;
      const expected = seeded.filter(matches).sort(newestFirst);
      assert.ok(name === 'all at once' || expected.length > 0, 'the seed covers the filter');
      const { ids } = await listAll(admin(), resolved, 5);
      assert.deepEqual(
        ids,
        expected.map((r) => r.validation_id),
      );
    });
  }

  test('the records come back whole, as the contract shows them', async () => {
    const reply = await callAs(server, '/api/v1/history', admin(), { limit: 1, review_state: 'approved' });
    const record = reply.body.data[0];
    const seededRecord = seeded.find((r) => r.validation_id === record.validation_id)!;
    assert.deepEqual(record, seededRecord);
    for (const internal of ['customer_id', 'outbox', 'ttl', '_etag', 'id']) assert.equal(internal in record, false, internal);
  });
});

describe('paging', () => {
  test('keyset pages stay exact while new validations arrive (globex, 60 records, some in the same millisecond)', async () => {
    const user = { token: await server.login('globex', 'user') };
    const start = Date.now() - 60 * 60 * 1000;
    const seeded: ValidationRecord[] = [];
    // Groups of three share a millisecond: the id breaks the tie.
    for (let i = 0; i < 60; i += 1)
      seeded.push(await recordValidation(server, tenant('globex'), { createdAt: new Date(start + Math.floor(i / 3) * 1000) }));
    const existing = await listAll(user, {}, 100);
    const expected = existing.ids;
    assert.ok(seeded.every((r) => expected.includes(r.validation_id)));

    const ids: string[] = [];
    let cursor: string | null = null;
    let arrivals = 0;
    do {
      const reply = await server.call('/api/v1/history', { limit: 7, ...(cursor ? { cursor } : {}) }, user);
      assert.equal(reply.status, 200, reply.text);
      ids.push(...reply.body.data.map((r: ValidationRecord) => r.validation_id));
      cursor = reply.body.next_cursor;
      // New validations arrive between the pages: through the API and through the recorder.
      await validateInline(server, user, { issues: arrivals % 2 === 0 });
      await recordValidation(server, tenant('globex'));
      arrivals += 2;
    } while (cursor);
    assert.deepEqual(ids, expected, 'every record existing at the start, once, in order, none of the new ones');
    const records = (await listAll(user, {}, 100)).ids;
    assert.equal(records.length, expected.length + arrivals);
  });

  test('default limit 25; limit 1-100; a cursor this server did not issue is a 400', async () => {
    const admin = server.apiKeyBody('globex', 'admin');
    const page = await callAs(server, '/api/v1/history', admin);
    assert.equal(page.body.data.length, 25);
    for (const limit of [0, 101]) {
      const reply = await callAs(server, '/api/v1/history', admin, { limit });
      assert.deepEqual([reply.status, reply.body.code], [400, 'invalid_request'], String(limit));
    }
    for (const cursor of [
      'bm90LWEtY3Vyc29y',
      Buffer.from('history:2026-01-01T00:00:00.000Z,val_X').toString('base64url'),
      Buffer.from('after:12').toString('base64url'),
    ]) {
      const reply = await callAs(server, '/api/v1/history', admin, { cursor });
      assert.deepEqual([reply.status, reply.body.code], [400, 'invalid_request'], cursor);
      assert.equal(reply.body.errors[0].pointer, '/cursor');
    }
    const backwards = await callAs(server, '/api/v1/history', admin, { date_from: day(0), date_to: day(-1) });
    assert.deepEqual([backwards.status, backwards.body.code], [400, 'invalid_request']);
  });
});

describe('visibility', () => {
  const finance = newId('grp', Date.now());
  let hrGroup: string;
  let own: ValidationRecord;
  let hr: ValidationRecord;
  let restricted: ValidationRecord;
  let mine: Credentials;

  before(async () => {
    const admin = { token: await server.login('acme', 'admin') };
    const group = await callAs(server, '/api/v1/sources/group/save', admin, { name: `HR ${Date.now()}`, allowed_roles: ['hr'] });
    assert.equal(group.status, 200, group.text);
    hrGroup = group.body.group_id;
    const bytes = Buffer.from('Leave policy. Full-time employees are entitled to 25 days of paid leave per calendar year.');
    const upload = await callAs(server, '/api/v1/sources/upload-url', admin, {
      group_id: hrGroup,
      file_name: 'leave.txt',
      content_type: 'text/plain',
      size_bytes: bytes.length,
    });
    assert.equal(upload.status, 200, upload.text);
    assert.equal((await fetch(upload.body.upload_url, { method: 'PUT', headers: upload.body.headers, body: bytes })).status, 201);
    mine = { token: await server.login('acme', 'user') };
    own = (
      await callAs(server, '/api/v1/validate', mine, { mode: 'generate', question: 'How much leave?', inline_text: 'Leave is 25 days.' })
    ).body;
    // A validation of the admin's grounded on the HR group, and one grounded on a group nobody here may use.
    const grounded = await callAs(server, '/api/v1/validate', admin, {
      mode: 'validate',
      question: 'How many days of paid leave do full-time employees get?',
      chatbot_response: 'Full-time employees get 25 days of paid leave per year.',
      source_groups: [hrGroup],
    });
    assert.equal(grounded.status, 200, grounded.text);
    assert.deepEqual(
      grounded.body.sources.map((s: { group_id: string }) => s.group_id),
      [hrGroup],
    );
    hr = grounded.body;
    restricted = await recordValidation(server, tenant('acme'), {
      sourceGroups: [finance],
      user: { type: 'user', id: 'usr_01JD3X8Q5Z7M2N4P6R8T0V2W4Y', name: 'Avery Admin', role: 'admin' },
    });
  });

  const seen = async (credentials: Credentials) => {
    const { ids } = await listAll(credentials, {}, 100);
    return [own, hr, restricted].map((r) => ids.includes(r.validation_id));
  };

  test('admins see every record of the tenant', async () => {
    assert.deepEqual(await seen({ token: await server.login('acme', 'admin') }), [true, true, true]);
    assert.deepEqual(await seen(server.apiKeyBody('acme', 'admin')), [true, true, true]);
  });

  test('a user sees their own records and those whose groups they may use (hr), not the finance one', async () => {
    assert.deepEqual(await seen(mine), [true, true, false]);
    const stored = (await listAll(mine, {}, 100)).ids;
    assert.ok(stored.includes(hr.validation_id));
  });

  test('a viewer without data-access roles, and a key without them, see only records grounded on open sources', async () => {
    assert.deepEqual(await seen({ token: await server.login('acme', 'viewer') }), [true, false, false]);
    assert.deepEqual(await seen(server.apiKeyBody('acme', 'viewer')), [true, false, false]);
    assert.deepEqual(await seen(server.apiKeyBody('acme', 'user')), [true, false, false]);
  });

  test('one record by its validation_id, with the answer, its claims and sources; none for who may not see it', async () => {
    const one = await callAs(server, '/api/v1/history', server.apiKeyBody('acme', 'admin'), { validation_id: hr.validation_id });
    assert.equal(one.status, 200, one.text);
    assert.deepEqual(
      one.body.data.map((r: ValidationRecord) => r.validation_id),
      [hr.validation_id],
    );
    assert.equal(one.body.has_more, false);
    const [record] = one.body.data as ValidationRecord[];
    assert.equal(record!.output, 'Full-time employees get 25 days of paid leave per year.');
    assert.deepEqual(record!.claims, hr.claims);
    assert.deepEqual(record!.sources, hr.sources);
    const filteredOut = await callAs(server, '/api/v1/history', server.apiKeyBody('acme', 'admin'), {
      validation_id: hr.validation_id,
      mode: 'generate',
    });
    assert.deepEqual(filteredOut.body.data, [], 'the other filters still apply');
    for (const credentials of [{ token: await server.login('acme', 'viewer') }, server.apiKeyBody('globex', 'admin')]) {
      const none = await callAs(server, '/api/v1/history', credentials, { validation_id: hr.validation_id });
      assert.equal(none.status, 200, none.text);
      assert.deepEqual(none.body.data, []);
    }
    const malformed = await callAs(server, '/api/v1/history', server.apiKeyBody('acme', 'admin'), { validation_id: 'nope' });
    assert.equal(malformed.status, 400);
  });

  test('filters apply within what the caller sees; another tenant sees none of it', async () => {
    const { ids } = await listAll({ token: await server.login('acme', 'viewer') }, { mode: 'validate' }, 100);
    assert.equal(ids.includes(hr.validation_id), false);
    const globex = (await listAll(server.apiKeyBody('globex', 'admin'), {}, 100)).ids;
    assert.equal(
      [own, hr, restricted].some((r) => globex.includes(r.validation_id)),
      false,
    );
  });
});
