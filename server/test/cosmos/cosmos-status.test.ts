import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { openCosmos } from '../../src/cosmos/cosmos.js';
import { cosmosOutcome, storeUnavailable } from '../../src/cosmos/cosmos-status.js';
import { createEmbeddedCosmos } from '../../src/cosmos/embedded-cosmos.js';
import { UnavailableError } from '../../src/errors.js';
import { capturedLog } from '../support/captured-log.js';
import { forwardTo } from '../support/emulator-front.js';
import { startTestServer } from '../support/harness.js';

test('Cosmos status codes map to outcomes in one place', () => {
  assert.equal(cosmosOutcome({ code: 404 }), 'not_found');
  assert.equal(cosmosOutcome(409), 'conflict');
  assert.equal(cosmosOutcome({ code: 412 }), 'precondition_failed');
  assert.equal(cosmosOutcome({ code: 429 }), 'throttled');
  assert.equal(cosmosOutcome({ code: 503 }), 'unavailable');
  assert.equal(cosmosOutcome({ code: 500 }), null);
  assert.equal(cosmosOutcome(new Error('x')), null);
  assert.equal(storeUnavailable({ code: 409 }), null);
  assert.equal(storeUnavailable({ code: 429, retryAfterInMs: 1500 })?.headers['Retry-After'], '2');
});

test('the Cosmos client throws the 503 problem once the SDK has retried a throttled request, and nothing else changes', async () => {
  // A loopback front of the embedded emulator that answers 429, as Cosmos DB does, while `throttling` is on.
  const emulator = createEmbeddedCosmos();
  await new Promise<void>((resolve) => emulator.listen(0, '127.0.0.1', resolve));
  const forward = forwardTo(emulator);
  let throttling = false;
  let throttled = 0;
  const front = createServer((req, res) => {
    if (throttling) {
      throttled += 1;
      req.resume();
      res
        .writeHead(429, { 'content-type': 'application/json', 'x-ms-retry-after-ms': '20' })
        .end(JSON.stringify({ code: 'TooManyRequests', message: 'Request rate is large' }));
      return;
    }
    forward(req, res);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const cosmos = await openCosmos({
    cosmos: {
      endpoint: `http://127.0.0.1:${(front.address() as AddressInfo).port}`,
      key: Buffer.from('embedded-emulator').toString('base64'),
    },
    databaseId: 'outages',
    log: capturedLog().log,
  });
  try {
    const history = cosmos.container('history');
    // Answers the stores handle themselves are untouched: a missing item is still a 404.
    assert.equal((await history.item('missing', 'acme').read()).statusCode, 404);
    throttling = true;
    const error = await history
      .item('missing', 'acme')
      .read()
      .then(
        () => assert.fail('a throttled read resolved'),
        (thrown: unknown) => thrown,
      );
    assert.ok(error instanceof UnavailableError, `got ${String(error)}`);
    assert.equal(error.code, 'service_unavailable');
    assert.equal(error.headers['Retry-After'], '1');
    assert.doesNotMatch(error.detail, /Request rate/);
    assert.ok(throttled > 1, 'the SDK retried before giving up');
  } finally {
    await cosmos.close();
    await new Promise<void>((resolve) => front.close(() => resolve()));
    await new Promise<void>((resolve) => emulator.close(() => resolve()));
  }
});

test('a store that is unavailable answers 503 with Retry-After, not 500', async () => {
  const unavailable = storeUnavailable({ code: 503, retryAfterInMs: 2500 })!;
  const server = await startTestServer({ operations: { getStats: async () => Promise.reject(unavailable) } });
  try {
    const reply = await server.call('/api/v1/stats', {}, { token: await server.login('acme', 'viewer') });
    assert.equal(reply.status, 503, reply.text);
    assert.equal(reply.body.code, 'service_unavailable');
    assert.equal(reply.headers.get('retry-after'), '3');
  } finally {
    await server.close();
  }
});
