import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { OperationTable } from '../../src/routes/operation.js';
import { startTestServer } from '../support/harness.js';

// Cast, as only a handler that compiles against the contract can reach the server otherwise.
const brokenStats = { getStats: async () => ({ customer_id: 'acme', validations: 'many' }) as never } satisfies OperationTable;

test('outside production a response that breaks the contract becomes a 500, so tests catch it', async () => {
  const server = await startTestServer({ operations: brokenStats });
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
  const server = await startTestServer({ operations: brokenStats, env: { NODE_ENV: 'production' } });
  try {
    const reply = await server.call('/api/v1/stats', {}, { token: await server.login('acme', 'viewer') });
    assert.equal(reply.status, 200);
  } finally {
    await server.close();
  }
});
