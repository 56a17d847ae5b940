// Async iteration over cursor pages, against a loopback server that pages with next_cursor.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createClient, type GroundcheckClient, NotFoundError } from '../src/index.js';
import { json, type Loopback, problem, type Recorded, startLoopback } from './support/loopback.js';

const records = Array.from({ length: 7 }, (_, i) => ({ id: `item_${i + 1}` }));

let server: Loopback;
let client: GroundcheckClient;

/** Pages of `limit` (default 3) records; the cursor is the offset, made opaque. */
function page(request: Recorded) {
  const limit = request.json?.limit ?? 3;
  const offset = request.json?.cursor ? Number(Buffer.from(request.json.cursor, 'base64url').toString().replace('offset:', '')) : 0;
  const data = records.slice(offset, offset + limit);
  const more = offset + limit < records.length;
  return { data, has_more: more, next_cursor: more ? Buffer.from(`offset:${offset + limit}`).toString('base64url') : null };
}

before(async () => {
  server = await startLoopback((request, res) => {
    if (request.json?.cursor === 'expired') return problem(res, 404, 'not_found');
    json(res, 200, page(request));
  });
  client = createClient({ baseUrl: server.url, token: 't' });
});
after(() => server.close());

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

describe('iterate', () => {
  test('history.iterate walks every page, passing next_cursor back as cursor and keeping the filters', async () => {
    const from = server.requests.length;
    const all = await collect(client.history.iterate({ mode: 'validate', review_state: 'pending_review' }));
    assert.deepEqual(all, records);
    const requests = server.requests.slice(from);
    assert.equal(requests.length, 3);
    assert.deepEqual(requests[0]!.json, { mode: 'validate', review_state: 'pending_review' });
    assert.deepEqual(requests[1]!.json, {
      mode: 'validate',
      review_state: 'pending_review',
      cursor: Buffer.from('offset:3').toString('base64url'),
    });
    assert.deepEqual(requests[2]!.json, {
      mode: 'validate',
      review_state: 'pending_review',
      cursor: Buffer.from('offset:6').toString('base64url'),
    });
    assert.ok(requests.every((r) => r.path === '/api/v1/history' && r.headers.authorization === 'Bearer t'));
  });

  test("the page size is the caller's limit", async () => {
    const from = server.requests.length;
    assert.deepEqual(await collect(client.audit.iterate({ limit: 5 })), records);
    assert.deepEqual(
      server.requests.slice(from).map((r) => r.json.limit),
      [5, 5],
    );
  });

  test('saas.users.iterate, and starting from a cursor', async () => {
    const from = server.requests.length;
    const rest = await collect(client.saas.users.iterate({ cursor: Buffer.from('offset:4').toString('base64url') }));
    assert.deepEqual(rest, records.slice(4));
    assert.ok(server.requests.slice(from).every((r) => r.path === '/api/v1/saas/users'));
  });

  test('fetches the next page only when the loop gets there, and stops when the loop breaks', async () => {
    const from = server.requests.length;
    const iterator = client.history.iterate();
    const seen: unknown[] = [];
    for await (const record of iterator) {
      seen.push(record);
      if (seen.length === 2) {
        assert.equal(server.requests.length - from, 1, 'the first page covers the first items');
        break;
      }
    }
    assert.equal(server.requests.length - from, 1);
  });

  test('each page is a typed record with lastResponse, one list() at a time', async () => {
    const first = await client.history.list({ limit: 3 });
    assert.equal(first.data.length, 3);
    assert.equal(first.has_more, true);
    assert.equal(first.lastResponse.status, 200);
    const second = await client.history.list({ limit: 3, cursor: first.next_cursor! });
    assert.deepEqual(second.data, records.slice(3, 6));
  });

  test('an error on a later page rejects the loop', async () => {
    await assert.rejects(collect(client.history.iterate({ cursor: 'expired' })), NotFoundError);
  });

  test('a single empty page yields nothing', async () => {
    const empty = await startLoopback((_request, res) => json(res, 200, { data: [], has_more: false, next_cursor: null }));
    try {
      assert.deepEqual(await collect(createClient({ baseUrl: empty.url, token: 't' }).audit.iterate()), []);
      assert.equal(empty.requests.length, 1);
    } finally {
      await empty.close();
    }
  });
});
