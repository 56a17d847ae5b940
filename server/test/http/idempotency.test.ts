import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { IdempotencyStore } from '../../src/cosmos/idempotency-store.js';
import { ConflictError, RateLimitError } from '../../src/errors.js';
import type { IdempotencyRecord } from '../../src/ports/idempotency-keys.js';
import { startTestServer, type TestServer } from '../support/harness.js';
import { sampleValidateRequest, ValidateStub } from '../support/validate-stub.js';

const request = sampleValidateRequest;

let server: TestServer;
let stub: ValidateStub;
let token: string;
let keyCounter = 0;
const newKey = () => `test-key-${process.pid}-${Date.now()}-${(keyCounter += 1)}`;

before(async () => {
  stub = new ValidateStub();
  server = await startTestServer({ operations: { validate: stub.handler } });
  token = await server.login('acme', 'user');
});
after(() => server.close());
beforeEach(() => {
  stub.release();
});

const validate = (key: string | undefined, body: unknown = request, options: { token?: string } = {}) =>
  server.call('/api/v1/validate', body, { token: options.token ?? token, headers: key === undefined ? {} : { 'Idempotency-Key': key } });

describe('Idempotency-Key on POST /api/v1/validate', () => {
  test('replays the first response for the same key and tenant, without running the validation again', async () => {
    const key = newKey();
    const before = stub.count;
    const first = await validate(key);
    const second = await validate(key);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    assert.equal(second.status, 200);
    assert.equal(second.headers.get('idempotent-replayed'), 'true');
    assert.equal(second.text, first.text, 'the same body, byte for byte');
    assert.equal(second.headers.get('content-type'), first.headers.get('content-type'));
    assert.notEqual(second.headers.get('x-request-id'), first.headers.get('x-request-id'), 'the replay has its own request id');
    assert.ok(second.headers.get('ratelimit-remaining'), 'and its own rate-limit window');
    assert.equal(stub.count - before, 1);
  });

  test('runs every request without a key', async () => {
    const before = stub.count;
    const first = await validate(undefined);
    const second = await validate(undefined);
    assert.notEqual(first.body.validation_id, second.body.validation_id);
    assert.equal(second.headers.get('idempotent-replayed'), null);
    assert.equal(stub.count - before, 2);
  });

  test('refuses the same key with a different body: 409 idempotency_key_reused', async () => {
    const key = newKey();
    assert.equal((await validate(key)).status, 200);
    const before = stub.count;
    const reused = await validate(key, { ...request, question: 'Another question?' });
    assert.equal(reused.status, 409);
    assert.equal(reused.headers.get('content-type'), 'application/problem+json; charset=utf-8');
    assert.equal(reused.body.code, 'idempotency_key_reused');
    assert.equal(stub.count, before);
  });

  test('ignores the order of fields when comparing bodies', async () => {
    const key = newKey();
    const first = await validate(key);
    const reordered = Object.fromEntries(Object.entries(request).reverse());
    const second = await validate(key, reordered);
    assert.equal(second.headers.get('idempotent-replayed'), 'true');
    assert.equal(second.body.validation_id, first.body.validation_id);
  });

  test('answers 409 idempotency_in_progress while the first request runs, then replays it', async () => {
    const key = newKey();
    const before = stub.count;
    stub.hold();
    const first = validate(key);
    await waitFor(() => stub.count > before);
    const during = await validate(key);
    assert.equal(during.status, 409);
    assert.equal(during.body.code, 'idempotency_in_progress');
    stub.release();
    const completed = await first;
    assert.equal(completed.status, 200);
    const after = await validate(key);
    assert.equal(after.headers.get('idempotent-replayed'), 'true');
    assert.equal(after.body.validation_id, completed.body.validation_id);
  });

  test('keeps keys apart between tenants', async () => {
    const key = newKey();
    const globex = await server.login('globex', 'user');
    const before = stub.count;
    const acme = await validate(key);
    const other = await validate(key, request, { token: globex });
    assert.equal(other.status, 200);
    assert.equal(other.headers.get('idempotent-replayed'), null);
    assert.notEqual(other.body.validation_id, acme.body.validation_id);
    assert.equal(stub.count - before, 2);
  });

  test("never replays one user's result to another user of the tenant", async () => {
    const key = newKey();
    assert.equal((await validate(key)).status, 200);
    const admin = await server.login('acme', 'admin');
    const other = await validate(key, request, { token: admin });
    assert.equal(other.status, 409);
    assert.equal(other.body.code, 'idempotency_key_reused');
  });

  test('replays to an API key, whose credentials are not part of the comparison', async () => {
    const key = newKey();
    const body = { ...request, ...server.apiKeyBody('acme', 'user') };
    const send = () => server.call('/api/v1/validate', body, { headers: { 'Idempotency-Key': key } });
    const first = await send();
    const second = await send();
    assert.equal(first.status, 200);
    assert.equal(second.headers.get('idempotent-replayed'), 'true');
    assert.equal(second.body.validation_id, first.body.validation_id);
  });

  test('does not store a 5xx: the retry runs again and is then replayed', async () => {
    const key = newKey();
    const before = stub.count;
    stub.failNext(new Error('engine crashed'));
    const failed = await validate(key);
    assert.equal(failed.status, 500);
    const retried = await validate(key);
    assert.equal(retried.status, 200);
    assert.equal(retried.headers.get('idempotent-replayed'), null);
    const replayed = await validate(key);
    assert.equal(replayed.headers.get('idempotent-replayed'), 'true');
    assert.equal(stub.count - before, 2);
  });

  test('does not store a 429', async () => {
    const key = newKey();
    stub.failNext(new RateLimitError('rate_limited', 'Slow down.', 1));
    assert.equal((await validate(key)).status, 429);
    const retried = await validate(key);
    assert.equal(retried.status, 200);
    assert.equal(retried.headers.get('idempotent-replayed'), null);
  });

  test('stores and replays a 4xx outcome of the handler', async () => {
    const key = newKey();
    stub.failNext(new ConflictError('limit_reached', 'The tenant has reached a limit.'));
    const first = await validate(key);
    assert.equal(first.status, 409);
    const second = await validate(key);
    assert.equal(second.status, 409);
    assert.equal(second.headers.get('idempotent-replayed'), 'true');
    assert.equal(second.body.code, 'limit_reached');
    assert.equal(second.body.request_id, first.body.request_id, 'the stored problem, as first sent');
  });

  test('a request refused by validation does not claim the key', async () => {
    const key = newKey();
    const invalid = await validate(key, { mode: 'validate', question: 'Q?' });
    assert.equal(invalid.status, 400);
    assert.equal((await validate(key)).status, 200);
  });

  test('rejects a malformed key with 400 before anything runs', async () => {
    const before = stub.count;
    for (const key of ['has space', 'x'.repeat(256)]) {
      const reply = await validate(key);
      assert.equal(reply.status, 400);
      assert.equal(reply.body.code, 'invalid_request');
      assert.ok(
        reply.body.errors.some((e: { pointer: string }) => e.pointer === 'header:idempotency-key'),
        JSON.stringify(reply.body.errors),
      );
    }
    assert.equal(stub.count, before);
  });

  test('keeps the response when the client disconnects, so the retry gets it', async () => {
    const key = newKey();
    const before = stub.count;
    stub.hold();
    const controller = new AbortController();
    const abandoned = fetch(`${server.url}/api/v1/validate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'Idempotency-Key': key },
      body: JSON.stringify(request),
      signal: controller.signal,
    }).catch((error: unknown) => error);
    await waitFor(() => stub.count > before);
    controller.abort();
    await abandoned;
    stub.release();
    await waitFor(async () => (await storedRecord(key))?.state === 'completed');
    const retried = await validate(key);
    assert.equal(retried.status, 200);
    assert.equal(retried.headers.get('idempotent-replayed'), 'true');
    assert.equal(stub.count - before, 1);
  });

  test('stores the record for 24 hours, per tenant, under a hash of the key and without the body', async () => {
    const key = newKey();
    await validate(key);
    const record = await storedRecord(key);
    assert.ok(record);
    assert.equal(record.customer_id, 'acme');
    assert.equal(record.id, IdempotencyStore.recordId(key));
    assert.equal(record.ttl, 86400);
    assert.equal(record.state, 'completed');
    assert.equal(record.response!.status, 200);
    assert.doesNotMatch(JSON.stringify(record), new RegExp(key), 'the key itself is not stored');
    assert.doesNotMatch(JSON.stringify({ ...record, response: null }), /paid leave/, 'nor the request');
  });

  test('runs again once the record is older than 24 hours', async () => {
    const key = newKey();
    const first = await validate(key);
    const container = server.cosmos.container('idempotency');
    const record = (await storedRecord(key))!;
    await container
      .item(record.id, 'acme')
      .replace({ ...record, created_at: new Date(Date.now() - 24 * 3600 * 1000 - 1000).toISOString() });
    const again = await validate(key);
    assert.equal(again.status, 200);
    assert.equal(again.headers.get('idempotent-replayed'), null);
    assert.notEqual(again.body.validation_id, first.body.validation_id);
  });
});

async function storedRecord(key: string): Promise<IdempotencyRecord | undefined> {
  const { resource } = await server.cosmos.container('idempotency').item(IdempotencyStore.recordId(key), 'acme').read<IdempotencyRecord>();
  return resource;
}

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
