import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestServer } from './support/harness.js';

const brokenStats = {
  getStats: (_req: unknown, res: { json(body: unknown): void }) => res.json({ customer_id: 'acme', validations: 'many' }),
};

test('outside production a response that breaks the contract becomes a 500, so tests catch it', async () => {
  const server = await startTestServer({ routes: brokenStats });
  try {
    const reply = await server.call('/api/v1/stats', {}, { token: await server.login('acme', 'viewer') });
    assert.equal(reply.status, 500);
    assert.equal(reply.body.code, 'internal_error');
    assert.doesNotMatch(reply.text, /validations|response/, 'the reason stays in the server log');
  } finally {
    await server.close();
  }
});

test('in production responses are not validated', async () => {
  const server = await startTestServer({ routes: brokenStats, env: { NODE_ENV: 'production' } });
  try {
    const reply = await server.call('/api/v1/stats', {}, { token: await server.login('acme', 'viewer') });
    assert.equal(reply.status, 200);
  } finally {
    await server.close();
  }
});
