// A store that accepts requests and never answers (a stalled Cosmos DB or Blob Storage account): every
// call is bounded by STORE_TIMEOUT_MS, so the request answers 503 with Retry-After instead of waiting
// on the SDK's own timeout (60 s for Cosmos DB); /readyz names the store; once the store answers again,
// a retry with the same Idempotency-Key completes the work once. The server runs as a process of its
// own, its stores behind loopback fronts that hold every request while the test says so.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { azuriteAccount, type EmbeddedAzurite, startEmbeddedAzurite } from '../../src/blobs/embedded-azurite.js';
import { createEmbeddedCosmos } from '../../src/cosmos/embedded-cosmos.js';
import { generateApiKey } from '../../src/services/auth/api-keys.js';
import { type Fixture, writeFixture } from '../support/fixtures.js';
import { type HoldingFront, startHoldingFront } from '../support/holding-front.js';
import { startServerProcess } from '../support/server-process.js';

/** Short, but long enough for a store that answers to answer on a loaded machine. */
const storeTimeoutMs = 2000;
/** Far below the SDK's own 60 s: a request that waits for it fails the test. */
const patienceMs = 30_000;
const emulator = createEmbeddedCosmos();
let azurite: EmbeddedAzurite;
let cosmosFront: HoldingFront;
let blobFront: HoldingFront;
let fixture: Fixture;
let child: ChildProcess;
let url: string;

interface Reply {
  status: number;
  headers: Headers;
  body: any;
}

async function post(path: string, body: object, key?: string): Promise<Reply> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(patienceMs),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

const readiness = async () => {
  const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(patienceMs) });
  return { status: response.status, body: await response.json() };
};

const as = (role: 'user' | 'admin') => ({ customer_id: 'acme', api_key: fixture.apiKeys.acme![role] });

function assertStalled(reply: Reply): void {
  assert.equal(reply.status, 503, JSON.stringify(reply.body));
  assert.equal(reply.body.code, 'service_unavailable');
  assert.ok(Number(reply.headers.get('retry-after')) >= 1);
}

/** Retries as the SDK does, after each 503 or 409 `idempotency_in_progress`, waiting its Retry-After. */
async function retried(path: string, body: object, key: string): Promise<Reply> {
  for (let attempt = 0; attempt < 30; attempt += 1) {
    const reply = await post(path, body, key);
    if (reply.status !== 503 && reply.body.code !== 'idempotency_in_progress') return reply;
    await sleep(Number(reply.headers.get('retry-after')) * 1000);
  }
  throw new Error(`${path} never completed`);
}

describe('a store that stalls', () => {
  before(async () => {
    await new Promise<void>((resolve) => emulator.listen(0, '127.0.0.1', resolve));
    azurite = await startEmbeddedAzurite();
    cosmosFront = await startHoldingFront(emulator);
    blobFront = await startHoldingFront(Number(new URL(azurite.endpoint).port));
    fixture = await writeFixture();
    const blobEndpoint = `${blobFront.url}/${azuriteAccount.name}`;
    ({ url, child } = await startServerProcess({
      NODE_ENV: 'test',
      LOG_LEVEL: 'error',
      TENANTS_FILE: fixture.file,
      COSMOS_ENDPOINT: cosmosFront.url,
      COSMOS_KEY: Buffer.from('stalled-stores').toString('base64'),
      AZURE_STORAGE_CONNECTION_STRING: `DefaultEndpointsProtocol=http;AccountName=${azuriteAccount.name};AccountKey=${azuriteAccount.key};BlobEndpoint=${blobEndpoint};`,
      JWT_SECRET: generateApiKey().key,
      STORE_TIMEOUT_MS: String(storeTimeoutMs),
      IDEMPOTENCY_LEASE_MS: '2000',
    }));
  });
  after(async () => {
    child.kill('SIGKILL');
    await cosmosFront.close();
    await blobFront.close();
    await azurite.close();
    emulator.closeAllConnections();
    await new Promise<void>((resolve) => emulator.close(() => resolve()));
  });

  test('Cosmos DB: 503 with Retry-After within the store timeout, /readyz says so, and a retry afterwards validates once', async () => {
    const question = 'How many days of leave do staff get (stalled store)?';
    const body = {
      ...as('user'),
      mode: 'validate',
      question,
      chatbot_response: 'Staff get 30 days of leave a year.',
      inline_text: 'Staff are entitled to 25 days of paid leave per calendar year.',
    };
    const key = `stalled-${Date.now()}`;
    void cosmosFront.holdWhen(() => true);
    assertStalled(await post('/api/v1/validate', body, key));
    assertStalled(await post('/api/v1/stats', as('admin')));
    const down = await readiness();
    assert.equal(down.status, 503);
    assert.deepEqual(down.body.checks, { cosmos: 'unavailable', storage: 'ok' });

    // The store answers again, and the writes it was holding land now.
    cosmosFront.letThrough();
    const reply = await retried('/api/v1/validate', body, key);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const history = await post('/api/v1/history', { ...as('admin'), limit: 100 });
    assert.deepEqual(
      history.body.data
        .filter((record: { question: string }) => record.question === question)
        .map((r: { validation_id: string }) => r.validation_id),
      [reply.body.validation_id],
      'recorded once',
    );
    assert.equal((await readiness()).status, 200);
  });

  test('Blob Storage: 503 with Retry-After within the store timeout, nothing changed, /readyz says so', async () => {
    const group = await retried('/api/v1/sources/group/save', { ...as('admin'), name: `Stalled ${Date.now()}` }, `group-${Date.now()}`);
    assert.equal(group.status, 200, JSON.stringify(group.body));
    const file = await retried(
      '/api/v1/sources/upload-url',
      { ...as('admin'), group_id: group.body.group_id, file_name: 'policy.txt', content_type: 'text/plain' },
      `file-${Date.now()}`,
    );
    assert.equal(file.status, 200, JSON.stringify(file.body));
    void blobFront.holdWhen(() => true);
    const target = { ...as('admin'), group_id: group.body.group_id, file_id: file.body.file_id };
    assertStalled(await post('/api/v1/sources/file/delete', target));
    const down = await readiness();
    assert.equal(down.status, 503);
    assert.deepEqual(down.body.checks, { cosmos: 'ok', storage: 'unavailable' });

    blobFront.letThrough();
    const listed = await post('/api/v1/sources', as('admin'));
    const inventory = listed.body.data.find((g: { group_id: string }) => g.group_id === group.body.group_id);
    assert.deepEqual(
      inventory.files.map((f: { file_id: string }) => f.file_id),
      [file.body.file_id],
      'the refused delete left the file listed',
    );
    const deleted = await retried('/api/v1/sources/file/delete', target, `delete-${Date.now()}`);
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.equal((await readiness()).status, 200);
  });
});
