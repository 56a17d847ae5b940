// Timeouts and the caller's abort signal, against loopback servers that never answer or stall.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, describe, test } from 'node:test';
import { ConnectionError, createClient, GroundcheckError, RequestAbortedError, TimeoutError } from '../src/index.js';
import { json, type Loopback, problem, type Respond, startLoopback } from './support/loopback.js';

const servers: Loopback[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

async function serve(respond: Respond) {
  const server = await startLoopback(respond);
  servers.push(server);
  return server;
}

/** Never answers; the connection stays open until the client gives up. */
const silent: Respond = () => undefined;

async function elapsed<T>(work: Promise<T>): Promise<[T | unknown, number]> {
  const started = Date.now();
  const outcome = await work.catch((error: unknown) => error);
  return [outcome, Date.now() - started];
}

describe('timeoutInMs', () => {
  test('a server that does not answer: TimeoutError after timeoutInMs', async () => {
    const server = await serve(silent);
    const client = createClient({ baseUrl: server.url, token: 't', timeoutInMs: 150, maxRetries: 0 });
    const [error, ms] = await elapsed(client.stats());
    assert.ok(error instanceof TimeoutError, String(error));
    assert.ok(error instanceof ConnectionError && error instanceof GroundcheckError);
    assert.equal(error.status, undefined);
    assert.match(error.message, /150 ms/);
    assert.ok(ms >= 140 && ms < 3000, `${ms} ms`);
  });

  test('each attempt gets the full timeout, and a timed-out attempt is retried', async () => {
    const server = await serve(silent);
    const client = createClient({ baseUrl: server.url, token: 't', timeoutInMs: 100, maxRetries: 1 });
    const [error] = await elapsed(client.validate({ mode: 'generate', question: 'Q?', inline_text: 'S.' }));
    assert.ok(error instanceof TimeoutError);
    assert.equal(server.requests.length, 2);
    assert.equal(server.requests[1]!.headers['idempotency-key'], server.requests[0]!.headers['idempotency-key']);
  });

  test('a call can set its own timeout', async () => {
    const server = await serve(silent);
    const client = createClient({ baseUrl: server.url, token: 't', maxRetries: 0 });
    const [error, ms] = await elapsed(client.auth.me({ timeoutInMs: 80 }));
    assert.ok(error instanceof TimeoutError);
    assert.ok(ms < 3000);
  });

  test('covers a body that stalls after the headers', async () => {
    const server = await serve((_request, res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"validations":');
    });
    const client = createClient({ baseUrl: server.url, token: 't', timeoutInMs: 150, maxRetries: 0 });
    const [error] = await elapsed(client.stats());
    assert.ok(error instanceof TimeoutError, String(error));
  });

  test('holds for a fetch implementation that ignores the signal', async () => {
    const client = createClient({
      baseUrl: 'http://127.0.0.1:9',
      token: 't',
      timeoutInMs: 100,
      maxRetries: 0,
      fetch: () => new Promise<Response>(() => undefined),
    });
    const [error, ms] = await elapsed(client.stats());
    assert.ok(error instanceof TimeoutError);
    assert.ok(ms < 3000);
  });

  test('a slow answer inside the timeout is fine', async () => {
    const server = await serve((_request, res) => void setTimeout(() => json(res, 200, { ok: true }), 100));
    const client = createClient({ baseUrl: server.url, token: 't', timeoutInMs: 2000 });
    assert.deepEqual(await client.stats(), { ok: true });
  });
});

describe('abortSignal', () => {
  test('aborting a call in flight rejects with RequestAbortedError and is not retried', async () => {
    const server = await serve(silent);
    const client = createClient({ baseUrl: server.url, token: 't' });
    const controller = new AbortController();
    const reason = new Error('user navigated away');
    setTimeout(() => controller.abort(reason), 50);
    const [error, ms] = await elapsed(client.stats({ abortSignal: controller.signal }));
    assert.ok(error instanceof RequestAbortedError, String(error));
    assert.ok(!(error instanceof ConnectionError));
    assert.equal(error.cause, reason);
    assert.ok(ms < 3000);
    assert.equal(server.requests.length, 1);
  });

  test('an already aborted signal sends nothing', async () => {
    const server = await serve(silent);
    const client = createClient({ baseUrl: server.url, token: 't' });
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(client.stats({ abortSignal: controller.signal }), RequestAbortedError);
    assert.equal(server.requests.length, 0);
  });

  test('aborting during the wait before a retry ends the call at once', async () => {
    const server = await serve((_request, res) => problem(res, 503, 'unavailable', { 'retry-after': '30' }));
    const client = createClient({ baseUrl: server.url, token: 't' });
    const controller = new AbortController();
    const pending = elapsed(client.stats({ abortSignal: controller.signal }));
    setTimeout(() => controller.abort(), 100);
    const [error, ms] = await pending;
    assert.ok(error instanceof RequestAbortedError, String(error));
    assert.ok(ms < 3000, `${ms} ms`);
    assert.equal(server.requests.length, 1);
  });

  test('aborts a file upload, including its PUT', async () => {
    const server = await serve((request, res) => {
      if (request.method === 'PUT') return; // object storage that never answers
      json(res, 200, {
        group_id: 'grp_01JD3XA1B2C3D4E5F6G7H8J9K0',
        file_id: 'fil_01JD3XB7C8D9E0F1G2H3J4K5M6',
        upload_url: `${server.url}/blob`,
        method: 'PUT',
        headers: {},
        expires_at: '2026-11-21T10:53:00Z',
      });
    });
    const client = createClient({ baseUrl: server.url, token: 't' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await assert.rejects(
      client.sources.uploadFile('grp_01JD3XA1B2C3D4E5F6G7H8J9K0', 'a.txt', 'text', { abortSignal: controller.signal }),
      RequestAbortedError,
    );
    assert.deepEqual(
      server.requests.map((r) => r.method),
      ['POST', 'PUT'],
    );
  });
});
