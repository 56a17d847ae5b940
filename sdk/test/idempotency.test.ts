// validate() retried against the reference server's Idempotency-Key support: the server runs the
// validation once, however the first attempt was lost. The server's validate handler is a stub that
// counts its runs (the engine arrives later); a proxy in front of it loses the first answer on purpose.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../../server/test/support/harness.js';
import { sampleValidateRequest, ValidateStub } from '../../server/test/support/validate-stub.js';
import { createClient, type GroundcheckClient, IdempotencyError, type ValidationRequest } from '../src/index.js';
import { json, type Loopback, startLoopback } from './support/loopback.js';

const request: ValidationRequest = sampleValidateRequest;

let server: TestServer;
let stub: ValidateStub;
let token: string;

before(async () => {
  stub = new ValidateStub();
  server = await startTestServer({ operations: { validate: stub.handler } });
  token = await server.login('acme', 'user');
});
after(() => server.close());

type LoseFirst = 'drop' | '503';

/** A proxy to the server that forwards every request and loses the first answer after the server sent it. */
async function lossyProxy(lose: LoseFirst): Promise<Loopback> {
  return startLoopback(async (incoming, res, index) => {
    const headers = Object.fromEntries(
      ['authorization', 'content-type', 'idempotency-key'].flatMap((name) =>
        incoming.headers[name] ? [[name, String(incoming.headers[name])]] : [],
      ),
    );
    const upstream = await fetch(server.url + incoming.path, { method: incoming.method, headers, body: incoming.body || undefined });
    const text = await upstream.text();
    if (index === 0 && lose === 'drop') return void res.socket?.destroy();
    if (index === 0 && lose === '503')
      return json(res, 503, { code: 'unavailable', status: 503, title: 'Proxy', type: 'about:blank', request_id: 'req_proxy' });
    const forwarded: Record<string, string> = {};
    upstream.headers.forEach((value, name) => (forwarded[name] = value));
    res.writeHead(upstream.status, forwarded).end(text);
  });
}

describe('validate with retries and Idempotency-Key', () => {
  for (const lose of ['drop', '503'] as const) {
    test(`the first answer is lost (${lose === 'drop' ? 'connection dropped' : 'a 503 from a proxy'}) after the server ran: the retry gets the replay`, async () => {
      const proxy = await lossyProxy(lose);
      try {
        const before = stub.count;
        const client = createClient({ baseUrl: proxy.url, token });
        const result = await client.validate(request);
        assert.equal(stub.count - before, 1, 'the validation ran once');
        assert.equal(proxy.requests.length, 2);
        assert.equal(proxy.requests[1]!.headers['idempotency-key'], proxy.requests[0]!.headers['idempotency-key']);
        assert.equal(result.lastResponse.headers.get('idempotent-replayed'), 'true');
        assert.equal(result.mode, 'validate');
        assert.match(result.validation_id, /^val_/);
        assert.equal(result.issue_count, 1);
      } finally {
        await proxy.close();
      }
    });
  }

  test("a caller's own key deduplicates across separate calls (a restarted job)", async () => {
    const before = stub.count;
    const key = `nightly-check-${Date.now()}`;
    const client = createClient({ baseUrl: server.url, token });
    const first = await client.validate(request, { idempotencyKey: key });
    const again = await createClient({ baseUrl: server.url, token }).validate(request, { idempotencyKey: key });
    assert.equal(again.validation_id, first.validation_id);
    assert.equal(first.lastResponse.headers.get('idempotent-replayed'), null);
    assert.equal(again.lastResponse.headers.get('idempotent-replayed'), 'true');
    assert.equal(stub.count - before, 1);
  });

  test('without a key of its own, each call is a new validation', async () => {
    const before = stub.count;
    const client = createClient({ baseUrl: server.url, token });
    const first = await client.validate(request);
    const second = await client.validate(request);
    assert.notEqual(second.validation_id, first.validation_id);
    assert.equal(stub.count - before, 2);
  });

  test('the same key with another request: IdempotencyError idempotency_key_reused', async () => {
    const key = `reused-${Date.now()}`;
    const client = createClient({ baseUrl: server.url, token });
    await client.validate(request, { idempotencyKey: key });
    const error = await client.validate({ ...request, question: 'Something else?' }, { idempotencyKey: key }).catch((e: unknown) => e);
    assert.ok(error instanceof IdempotencyError);
    assert.equal(error.status, 409);
    assert.equal(error.code, 'idempotency_key_reused');
  });

  test('a first attempt that timed out while the server kept working: the retry waits for it, then gets its replay', async () => {
    const before = stub.count;
    stub.hold();
    setTimeout(() => stub.release(), 900);
    const client: GroundcheckClient = createClient({ baseUrl: server.url, token, timeoutInMs: 300, maxRetries: 4 });
    const result = await client.validate(request);
    assert.equal(stub.count - before, 1, 'the validation ran once');
    assert.equal(result.lastResponse.headers.get('idempotent-replayed'), 'true');
  });
});
