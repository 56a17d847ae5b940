import assert from 'node:assert/strict';
import { test } from 'node:test';
import { capturedLog } from '../support/captured-log.js';
import { startTestServer } from '../support/harness.js';

test('/readyz reports Cosmos DB; /healthz only the process', async () => {
  const server = await startTestServer();
  try {
    assert.deepEqual((await server.call('/readyz', undefined, { method: 'GET' })).body, {
      status: 'ok',
      checks: { cosmos: 'ok', storage: 'ok' },
    });
    await server.cosmos.close();
    const down = await server.call('/readyz', undefined, { method: 'GET' });
    assert.equal(down.status, 503);
    assert.deepEqual(down.body, { status: 'unavailable', checks: { cosmos: 'unavailable', storage: 'ok' } });
    assert.equal((await server.call('/healthz', undefined, { method: 'GET' })).status, 200);
  } finally {
    await server.close().catch(() => undefined);
  }
});

test('/readyz reports object storage', async () => {
  const server = await startTestServer();
  try {
    await server.container.storage.close();
    const down = await server.call('/readyz', undefined, { method: 'GET' });
    assert.equal(down.status, 503);
    assert.deepEqual(down.body, { status: 'unavailable', checks: { cosmos: 'ok', storage: 'unavailable' } });
  } finally {
    await server.close().catch(() => undefined);
  }
});

test('successful probes are logged at debug, other requests and failed probes at info', async () => {
  const { log, lines } = capturedLog();
  const server = await startTestServer({ log });
  try {
    await server.call('/healthz', undefined, { method: 'GET' });
    await server.call('/readyz', undefined, { method: 'GET' });
    await server.call('/auth/me', server.apiKeyBody('acme', 'viewer'));
    await server.cosmos.close();
    await server.call('/readyz', undefined, { method: 'GET' });
  } finally {
    await server.close().catch(() => undefined);
  }
  const completed = lines.filter((line) => line.msg === 'request completed').map((line) => [line.path, line.status, line.level]);
  assert.deepEqual(completed, [
    ['/healthz', 200, 20],
    ['/readyz', 200, 20],
    ['/auth/me', 200, 30],
    ['/readyz', 503, 30],
  ]);
});
