import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cosmosOutcome, storeUnavailable } from '../../src/store/cosmos-status.js';
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

test('a throttled or unavailable store answers 503 with Retry-After, not 500', async () => {
  const throttled = Object.assign(new Error('Request rate is large'), { code: 429, retryAfterInMs: 2500 });
  const server = await startTestServer({ operations: { getStats: async () => Promise.reject(throttled) } });
  try {
    const reply = await server.call('/api/v1/stats', {}, { token: await server.login('acme', 'viewer') });
    assert.equal(reply.status, 503, reply.text);
    assert.equal(reply.body.code, 'service_unavailable');
    assert.equal(reply.headers.get('retry-after'), '3');
    assert.doesNotMatch(reply.text, /Request rate/);
  } finally {
    await server.close();
  }
});
