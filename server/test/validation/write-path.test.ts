// The hot paths against the store: a validation writes with point operations only, a fixed number
// of them, whatever the container holds, and lists stay in the tenant's partition. Requests are
// counted at the emulator the server talks to.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createEmbeddedCosmos } from '../../src/cosmos/embedded-cosmos.js';
import { startTestServer, type TestServer } from '../support/harness.js';

interface StoreRequest {
  method: string;
  path: string;
  query: boolean;
  batch: boolean;
  crossPartition: boolean;
}

const emulator = createEmbeddedCosmos();
const seen: StoreRequest[] = [];
emulator.on('request', (req: IncomingMessage) => {
  seen.push({
    method: req.method ?? '',
    path: (req.url ?? '').replace(/\/docs\/[^/]+$/, '/docs/{id}'),
    query: req.headers['x-ms-documentdb-isquery'] === 'true',
    batch: String(req.headers['x-ms-cosmos-is-batch-request']).toLowerCase() === 'true',
    crossPartition: req.headers['x-ms-documentdb-isquery'] === 'true' && req.headers['x-ms-documentdb-partitionkey'] === undefined,
  });
});

let server: TestServer;
const validateBody = (body: object) => ({
  mode: 'validate',
  question: 'How many days of leave do full-time staff get?',
  chatbot_response: 'Full-time staff get 30 days of leave a year.',
  inline_text: 'Full-time staff are entitled to 25 days of paid leave per calendar year.',
  ...body,
});

/** The store requests of `call`, but the rate-limit counts: a cache in front of them batches those (limits/rate-limiter.test.ts). */
async function storeRequestsOf(call: () => Promise<unknown>): Promise<StoreRequest[]> {
  const from = seen.length;
  await call();
  return seen.slice(from).filter((request) => !request.path.includes('/colls/limits/'));
}

describe('the write path of POST /api/v1/validate', () => {
  before(async () => {
    await new Promise<void>((resolve) => emulator.listen(0, '127.0.0.1', resolve));
    server = await startTestServer({
      env: {
        COSMOS_ENDPOINT: `http://127.0.0.1:${(emulator.address() as AddressInfo).port}`,
        COSMOS_KEY: Buffer.from('write-path-test').toString('base64'),
      },
    });
    // The recoveries' pass at start reads the store in the background; on a loaded machine it may not be over yet.
    await server.container.recoveriesSettled();
  });
  after(async () => {
    await server.close();
    emulator.closeAllConnections();
    await new Promise<void>((resolve) => emulator.close(() => resolve()));
  });

  it('issues no query, only point reads and writes, the same number each time', async () => {
    const credentials = server.apiKeyBody('acme', 'user');
    const validate = async () => {
      const reply = await server.call('/api/v1/validate', validateBody(credentials));
      assert.equal(reply.status, 200, reply.text);
    };
    await validate();
    const counts: number[] = [];
    for (let i = 0; i < 3; i++) {
      const requests = await storeRequestsOf(validate);
      assert.deepEqual(
        requests.filter((r) => r.query),
        [],
        'a validation must not query the store',
      );
      counts.push(requests.length);
    }
    assert.equal(new Set(counts).size, 1, `store requests per validation: ${counts.join(', ')}`);
  });

  it('is five store calls: the counts are increments in the batch that writes the record, nothing is read to count', async () => {
    const credentials = server.apiKeyBody('acme', 'user');
    const requests = await storeRequestsOf(async () => {
      const reply = await server.call('/api/v1/validate', validateBody(credentials));
      assert.equal(reply.status, 200, reply.text);
    });
    assert.deepEqual(
      requests.map((r) => `${r.method} ${r.path.replace('/dbs/groundcheck/colls/', '')}${r.batch ? ' batch' : ''}`),
      [
        'GET tenant_state/docs/{id}', // the account's deletion marker
        'POST history/docs batch', // the record, the month's usage and the day's rollup
        'GET audit/docs/{id}', // the head of the audit chain
        'POST audit/docs batch', // the events and the new head
        'PATCH history/docs/{id}', // the record's outbox, emptied
      ],
    );
  });

  it('reads history, the audit trail and users with single-partition queries only', async () => {
    const admin = await server.login('acme', 'admin');
    const requests = await storeRequestsOf(async () => {
      for (const path of ['/api/v1/history', '/api/v1/audit', '/api/v1/saas/users', '/api/v1/sources', '/api/v1/analytics']) {
        const reply = await server.call(path, {}, { token: admin });
        assert.equal(reply.status, 200, `${path}: ${reply.text}`);
      }
    });
    assert.ok(requests.some((r) => r.query));
    assert.deepEqual(
      requests.filter((r) => r.crossPartition).map((r) => r.path),
      [],
      "a list must stay in the tenant's partition",
    );
  });
});
