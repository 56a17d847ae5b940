// The embedded emulator as the server runs it: queries compiled without the per-document array copy,
// connections kept alive between store calls, atomic batches that take Patch operations, and each
// query run once.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it, test } from 'node:test';
import { type Container, CosmosClient } from '@azure/cosmos';
import { createEmbeddedCosmos } from '../../src/cosmos/embedded-cosmos.js';

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

describe('transactional batches, as Cosmos DB runs them', () => {
  const emulator = createEmbeddedCosmos();
  let client: CosmosClient;
  let container: Container;
  before(async () => {
    await new Promise<void>((resolve) => emulator.listen(0, '127.0.0.1', resolve));
    client = new CosmosClient({
      endpoint: `http://127.0.0.1:${(emulator.address() as AddressInfo).port}`,
      key: Buffer.from('test').toString('base64'),
      connectionPolicy: { enableEndpointDiscovery: false },
    });
    const { database } = await client.databases.createIfNotExists({ id: 'db' });
    ({ container } = await database.containers.createIfNotExists({ id: 'shelf', partitionKey: { paths: ['/pk'] } }));
    await container.items.create({ id: 'tally', pk: 'p', copies: { paper: 0 } });
    await container.items.create({ id: 'book', pk: 'p', title: 'Tides' });
  });
  after(async () => {
    client.dispose();
    emulator.closeAllConnections();
    await new Promise<void>((resolve) => emulator.close(() => resolve()));
  });

  it('applies Patch operations with the others', async () => {
    const { result } = await container.items.batch(
      [
        {
          operationType: 'Patch',
          id: 'tally',
          partitionKey: 'p',
          resourceBody: { operations: [{ op: 'incr', path: '/copies/paper', value: 2 }] },
        },
        { operationType: 'Create', partitionKey: 'p', resourceBody: { id: 'atlas', pk: 'p' } },
      ],
      'p',
    );
    assert.deepEqual(
      result?.map((r) => r.statusCode),
      [200, 201],
    );
    const { resource } = await container.item('tally', 'p').read();
    assert.equal(resource.copies.paper, 2);
  });

  it('writes nothing when one operation fails, and says which with 424 for the others', async () => {
    const { resource: book, etag } = await container.item('book', 'p').read();
    const { resource: tallyBefore } = await container.item('tally', 'p').read();
    const { result } = await container.items.batch(
      [
        {
          operationType: 'Patch',
          id: 'tally',
          partitionKey: 'p',
          resourceBody: { operations: [{ op: 'incr', path: '/copies/paper', value: 5 }] },
        },
        { operationType: 'Replace', id: 'book', partitionKey: 'p', resourceBody: { ...book, title: 'Currents' } },
        { operationType: 'Create', partitionKey: 'p', resourceBody: { id: 'atlas', pk: 'p' } },
        { operationType: 'Create', partitionKey: 'p', resourceBody: { id: 'globe', pk: 'p' } },
      ],
      'p',
    );
    assert.deepEqual(
      result?.map((r) => r.statusCode),
      [424, 424, 409, 424],
    );
    const { resource: tallyAfter } = await container.item('tally', 'p').read();
    assert.deepEqual(tallyAfter, tallyBefore, 'the increment is undone, _etag included');
    const { resource: bookAfter, etag: etagAfter } = await container.item('book', 'p').read();
    assert.equal(bookAfter.title, 'Tides');
    assert.equal(etagAfter, etag);
    assert.equal((await container.item('globe', 'p').read()).resource, undefined);
  });

  it('answers a stale ETag guard with 412 and leaves the other operations unapplied', async () => {
    const { result } = await container.items.batch(
      [
        {
          operationType: 'Replace',
          id: 'book',
          partitionKey: 'p',
          ifMatch: '"stale"',
          resourceBody: { id: 'book', pk: 'p', title: 'Reefs' },
        },
        {
          operationType: 'Patch',
          id: 'tally',
          partitionKey: 'p',
          resourceBody: { operations: [{ op: 'incr', path: '/copies/paper', value: 1 }] },
        },
      ],
      'p',
    );
    assert.deepEqual(
      result?.map((r) => r.statusCode),
      [412, 424],
    );
    assert.equal((await container.item('tally', 'p').read()).resource.copies.paper, 2);
  });
});

it('runs each query once: the query plan @azure/cosmos asks for alongside it is refused without running it', async () => {
  const emulator = createEmbeddedCosmos();
  await new Promise<void>((resolve) => emulator.listen(0, '127.0.0.1', resolve));
  const client = new CosmosClient({
    endpoint: `http://127.0.0.1:${(emulator.address() as AddressInfo).port}`,
    key: Buffer.from('test').toString('base64'),
    connectionPolicy: { enableEndpointDiscovery: false },
  });
  let queries = 0;
  emulator.on('request', (req: IncomingMessage) => {
    if (req.headers['x-ms-documentdb-isquery'] === 'true') queries++;
  });
  try {
    const { database } = await client.databases.createIfNotExists({ id: 'db' });
    const { container } = await database.containers.createIfNotExists({ id: 'shelf', partitionKey: { paths: ['/pk'] } });
    for (const n of [3, 1, 2]) await container.items.create({ id: `b${n}`, pk: 'p', n });
    const before = queries;
    const { resources } = await container.items
      .query(
        { query: 'SELECT * FROM c WHERE c.pk = @pk ORDER BY c.n DESC', parameters: [{ name: '@pk', value: 'p' }] },
        { partitionKey: 'p' },
      )
      .fetchAll();
    assert.deepEqual(
      resources.map((r) => r.n),
      [3, 2, 1],
    );
    assert.equal(queries - before, 1);
  } finally {
    client.dispose();
    emulator.closeAllConnections();
    await new Promise<void>((resolve) => emulator.close(() => resolve()));
  }
});
