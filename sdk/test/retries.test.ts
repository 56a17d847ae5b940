// Retries against loopback servers that fail on purpose: what is retried, how long the client waits,
// and that a retried validation keeps its Idempotency-Key.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import {
  BadRequestError,
  ConflictError,
  ConnectionError,
  createClient,
  IdempotencyError,
  NotFoundError,
  RateLimitError,
  ServerError,
  type ValidationRequest,
} from '../src/index.js';
import { retryDelayInMs } from '../src/request.js';
import { drop, json, type Loopback, problem, type Respond, startLoopback } from './support/loopback.js';

const validation: ValidationRequest = {
  mode: 'generate',
  question: 'What is the notice period?',
  urls: ['https://intranet.acme.example/notice'],
};
const servers: Loopback[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

async function serve(respond: Respond) {
  const server = await startLoopback(respond);
  servers.push(server);
  return { server, client: createClient({ baseUrl: server.url, token: 't' }) };
}

/** Answers with `failures` in order, then 200. */
const failThenSucceed =
  (...failures: Respond[]): Respond =>
  (request, res, index) =>
    index < failures.length ? failures[index]!(request, res, index) : json(res, 200, { attempt: index + 1 });

describe('retries', () => {
  test('a server that fails twice, then succeeds: the call succeeds after backoff', async () => {
    const unavailable: Respond = (_r, res) => problem(res, 503, 'unavailable');
    const { server, client } = await serve(failThenSucceed(unavailable, unavailable));
    const started = Date.now();
    const result = await client.validate(validation);
    assert.deepEqual(result, { attempt: 3 });
    assert.equal(server.requests.length, 3);
    const [first, second, third] = server.requests.map((r) => r.at);
    // 500 ms, then 1000 ms, each less up to 25 % jitter.
    assert.ok(second! - first! >= 370, `first wait ${second! - first!} ms`);
    assert.ok(third! - second! >= 740, `second wait ${third! - second!} ms`);
    assert.ok(Date.now() - started < 6000);
  });

  test('every attempt of a validation carries the same Idempotency-Key and body', async () => {
    const { server, client } = await serve(failThenSucceed((_r, res) => problem(res, 500, 'internal_error', { 'retry-after': '0' })));
    await client.validate(validation);
    const [first, second] = server.requests;
    assert.ok(first!.headers['idempotency-key']);
    assert.equal(second!.headers['idempotency-key'], first!.headers['idempotency-key']);
    assert.equal(second!.body, first!.body);
    assert.equal(second!.headers.authorization, 'Bearer t');
  });

  test('a dropped connection is retried', async () => {
    const { server, client } = await serve(failThenSucceed(drop, drop));
    assert.deepEqual(await client.stats(), { attempt: 3 });
    assert.equal(server.requests.length, 3);
  });

  test('a 429 with Retry-After: waits that long, then retries', async () => {
    const { server, client } = await serve(failThenSucceed((_r, res) => problem(res, 429, 'rate_limited', { 'retry-after': '1' })));
    const result = await client.stats();
    assert.deepEqual(result, { attempt: 2 });
    const waited = server.requests[1]!.at - server.requests[0]!.at;
    assert.ok(waited >= 990 && waited < 4000, `waited ${waited} ms`);
  });

  test('Retry-After as an HTTP date', async () => {
    const { server, client } = await serve(
      failThenSucceed((_r, res) => problem(res, 503, 'unavailable', { 'retry-after': new Date(Date.now() + 2000).toUTCString() })),
    );
    await client.stats();
    const waited = server.requests[1]!.at - server.requests[0]!.at;
    // An HTTP date has whole seconds, so the wait is between 1 and 2 seconds.
    assert.ok(waited >= 900 && waited <= 4000, `waited ${waited} ms`);
  });

  test('a Retry-After beyond a minute is not waited for: the caller gets the RateLimitError', async () => {
    const { server, client } = await serve((_r, res) => problem(res, 429, 'rate_limited', { 'retry-after': '120' }));
    const error = await client.stats().catch((e: unknown) => e);
    assert.ok(error instanceof RateLimitError);
    assert.equal(error.retryAfterInMs, 120_000);
    assert.equal(server.requests.length, 1);
  });

  test('408 is retried', async () => {
    const { server, client } = await serve(failThenSucceed((_r, res) => problem(res, 408, 'request_timeout', { 'retry-after': '0' })));
    await client.stats();
    assert.equal(server.requests.length, 2);
  });

  test('a validation still running (409 idempotency_in_progress) is retried until its replay arrives', async () => {
    const { server, client } = await serve(
      failThenSucceed((_r, res) => problem(res, 409, 'idempotency_in_progress', { 'retry-after': '0' })),
    );
    assert.deepEqual(await client.validate(validation), { attempt: 2 });
    assert.equal(server.requests.length, 2);
  });

  test('gives up after maxRetries and throws the last error', async () => {
    const { server, client } = await serve((_r, res) => problem(res, 502, 'bad_gateway', { 'retry-after': '0' }));
    const error = await client.stats().catch((e: unknown) => e);
    assert.ok(error instanceof ServerError);
    assert.equal(error.status, 502);
    assert.equal(server.requests.length, 3, 'the first attempt and 2 retries');
  });

  test('maxRetries of the client and of the call', async () => {
    const { server } = await serve((_r, res) => problem(res, 503, 'unavailable', { 'retry-after': '0' }));
    const client = createClient({ baseUrl: server.url, token: 't', maxRetries: 0 });
    await assert.rejects(client.stats(), ServerError);
    assert.equal(server.requests.length, 1);
    await assert.rejects(client.stats({ maxRetries: 1 }), ServerError);
    assert.equal(server.requests.length, 3);
  });

  test('connection errors surface as ConnectionError once retries are used up', async () => {
    const { server, client } = await serve(drop);
    const error = await client.stats({ maxRetries: 1 }).catch((e: unknown) => e);
    assert.ok(error instanceof ConnectionError, String(error));
    assert.equal(error.status, undefined);
    assert.equal(server.requests.length, 2);
  });

  for (const [status, code, errorClass] of [
    [400, 'invalid_request', BadRequestError],
    [404, 'not_found', NotFoundError],
    [409, 'idempotency_key_reused', IdempotencyError],
    [409, 'group_name_taken', ConflictError],
    [501, 'not_implemented', ServerError],
  ] as const) {
    test(`${status} ${code} is not retried`, async () => {
      const { server, client } = await serve((_r, res) => problem(res, status, code));
      await assert.rejects(client.validate(validation), errorClass);
      assert.equal(server.requests.length, 1);
    });
  }
});

describe('backoff', () => {
  test('doubles from 500 ms up to 8 s, less up to 25 % jitter', () => {
    for (let attempt = 0; attempt < 8; attempt += 1) {
      const ceiling = Math.min(500 * 2 ** attempt, 8000);
      for (let i = 0; i < 50; i += 1) {
        const delay = retryDelayInMs(attempt)!;
        assert.ok(delay <= ceiling && delay >= ceiling * 0.75, `attempt ${attempt}: ${delay}`);
      }
    }
  });

  test('jitter spreads the waits', () => {
    const delays = new Set(Array.from({ length: 20 }, () => retryDelayInMs(1)));
    assert.ok(delays.size > 10);
  });
});
