// The embedded emulator as the server runs it: queries compiled without the per-document array copy,
// and connections kept alive between store calls.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { CosmosClient } from '@azure/cosmos';
import { createEmbeddedCosmos } from '../../src/store/embedded-cosmos.js';

test('queries are compiled without copying the documents once per document', () => {
  createEmbeddedCosmos().close();
  const require = createRequire(createRequire(import.meta.url).resolve('@vercel/cosmosdb-server'));
  const createQuery = require('@zeit/cosmosdb-query').default as (sql: string) => { code: string };
  const code = createQuery('SELECT * FROM c WHERE c.customer_id = @c ORDER BY c.created_at DESC').code;
  assert.doesNotMatch(code, /\[\.\.\.\$/);
  assert.match(code, /\.filter\(/);
});

test('the emulator keeps connections alive, and a store call reuses one', async () => {
  const emulator = createEmbeddedCosmos();
  await new Promise<void>((resolve) => emulator.listen(0, '127.0.0.1', resolve));
  let connections = 0;
  emulator.on('connection', () => connections++);
  const endpoint = `http://127.0.0.1:${(emulator.address() as AddressInfo).port}`;
  try {
    const response = await fetch(`${endpoint}/`, { headers: { authorization: 'x' } });
    assert.equal(response.headers.get('connection'), 'keep-alive');
    await response.arrayBuffer();
    const client = new CosmosClient({
      endpoint,
      key: Buffer.from('test').toString('base64'),
      connectionPolicy: { enableEndpointDiscovery: false },
    });
    const { database } = await client.databases.createIfNotExists({ id: 'db' });
    const { container } = await database.containers.createIfNotExists({ id: 'items', partitionKey: { paths: ['/pk'] } });
    const before = connections;
    for (let i = 0; i < 20; i++) await container.items.create({ id: `i${i}`, pk: 'p' });
    assert.ok(connections - before <= 2, `20 writes opened ${connections - before} connections`);
    client.dispose();
  } finally {
    emulator.closeAllConnections();
    await new Promise<void>((resolve) => emulator.close(() => resolve()));
  }
});
