// A server process killed (SIGKILL) in the middle of a validation, and its caller retrying the same
// Idempotency-Key on another process of the deployment, as the SDK does: the validation is recorded,
// audited, counted and notified once, under the id bound to the key. The first process reaches the
// emulator through a front that holds a chosen store call, so the kill comes at a known point:
// after the record was written (its audit append held), or before anything was (its history write
// held). A process whose request is held but alive keeps its key through lease renewals.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { CosmosClient, type ItemDefinition } from '@azure/cosmos';
import { createEmbeddedCosmos } from '../../src/cosmos/embedded-cosmos.js';
import { IdempotencyStore } from '../../src/cosmos/idempotency-store.js';
import type { IdempotencyRecord } from '../../src/ports/idempotency-keys.js';
import { generateApiKey } from '../../src/services/auth/api-keys.js';
import { type Fixture, writeFixture } from '../support/fixtures.js';
import { type HoldingFront, startHoldingFront } from '../support/holding-front.js';
import { startServerProcess } from '../support/server-process.js';

/** The lease of the processes that are killed: a retry takes over their keys this long after their last renewal. */
const leaseMs = 3000;
/** The slow holder's lease: renewed every 2 s, so a loaded machine may delay a renewal by 4 s and still keep the key. */
const slowLeaseMs = 6000;
const emulator = createEmbeddedCosmos();
const cosmosKey = Buffer.from('crash-retry').toString('base64');
const children: ChildProcess[] = [];
/** Webhook deliveries received, by validation id. */
const deliveries = new Map<string, number>();
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const { validation_id: id } = JSON.parse(Buffer.concat(chunks).toString());
    deliveries.set(id, (deliveries.get(id) ?? 0) + 1);
    res.end();
  });
});
let front: HoldingFront;
let fixture: Fixture;
let env: Record<string, string>;
/** The process retries go to; it talks to the emulator directly. */
let survivor: string;

const emulatorUrl = () => `http://127.0.0.1:${(emulator.address() as AddressInfo).port}`;

async function startProcess(cosmosEndpoint: string, settings: Record<string, string> = {}): Promise<{ url: string; child: ChildProcess }> {
  const started = await startServerProcess(
    {
      ...env,
      COSMOS_ENDPOINT: cosmosEndpoint,
      IDEMPOTENCY_LEASE_MS: String(leaseMs),
      ...settings,
    },
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  // The processes' warnings and errors go into the test's output: a failure here under load is
  // otherwise a bare status code.
  started.child.stdout?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  children.push(started.child);
  return started;
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

interface Reply {
  status: number;
  headers: Headers;
  body: any;
}

async function post(url: string, path: string, body: object, key?: string): Promise<Reply> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

const user = () => ({ customer_id: 'acme', api_key: fixture.apiKeys.acme!.user });
const admin = () => ({ customer_id: 'acme', api_key: fixture.apiKeys.acme!.admin });

const validation = (question: string) => ({
  ...user(),
  mode: 'validate',
  question,
  chatbot_response: 'Staff get 30 days of leave a year.',
  inline_text: 'Staff are entitled to 25 days of paid leave per calendar year.',
});

/** Retries as the SDK does: after a 409 `idempotency_in_progress`, waits its Retry-After. */
async function retryUntilAnswered(body: object, key: string): Promise<{ reply: Reply; waits: number[] }> {
  const waits: number[] = [];
  for (let attempt = 0; attempt < 60; attempt += 1) {
    const reply = await post(survivor, '/api/v1/validate', body, key);
    if (reply.status !== 409 || reply.body.code !== 'idempotency_in_progress') return { reply, waits };
    const wait = Number(reply.headers.get('retry-after'));
    waits.push(wait);
    await sleep(wait * 1000);
  }
  throw new Error('the key was never taken over');
}

async function recordsFor(question: string): Promise<any[]> {
  const page = await post(survivor, '/api/v1/history', { ...admin(), limit: 100 });
  assert.equal(page.status, 200);
  return page.body.data.filter((record: { question: string }) => record.question === question);
}

async function auditKinds(validationId: string): Promise<string[]> {
  const page = await post(survivor, '/api/v1/audit', { ...admin(), validation_id: validationId, limit: 100 });
  assert.equal(page.status, 200);
  return page.body.data.map((event: { kind: string }) => event.kind);
}

const total = async () => (await post(survivor, '/api/v1/stats', admin())).body.validations.total as number;

/** The webhook deliveries for a validation, once the one expected has come (fire and forget) and a moment more. */
async function deliveriesFor(validationId: string): Promise<number> {
  for (let i = 0; i < 100 && !deliveries.has(validationId); i++) await sleep(100);
  await sleep(500);
  return deliveries.get(validationId) ?? 0;
}

/** An item of the tenant's, read from the emulator as it is stored. */
async function storedItem<T extends ItemDefinition>(container: 'idempotency' | 'history', id: string): Promise<T> {
  const client = new CosmosClient({ endpoint: emulatorUrl(), key: cosmosKey, connectionPolicy: { enableEndpointDiscovery: false } });
  try {
    const { resource } = await client.database('groundcheck').container(container).item(id, 'acme').read<T>();
    return resource!;
  } finally {
    client.dispose();
  }
}

const keyRecord = (key: string) => storedItem<IdempotencyRecord>('idempotency', IdempotencyStore.recordId(key));
const recordKeyId = async (validationId: string) =>
  (await storedItem<{ idempotency_key_id: string | null }>('history', validationId)).idempotency_key_id;

/**
 * Waits until the front holds a write of the request with `key` into `container` and returns the key's
 * record. A write held before the request claimed its key is another process's (the processes share the
 * front, and a loaded machine may still be finishing an earlier test's): it is let through and the next held.
 */
async function ownWriteHeld(
  container: 'audit' | 'history',
  key: string,
  held: Promise<unknown>,
  request: Promise<unknown>,
): Promise<IdempotencyRecord> {
  await heldBeforeAnswered(held, request);
  let claimed = await keyRecord(key);
  for (let other = 0; !claimed && other < 5; other += 1) {
    const next = front.holdWhen(isStoreCall(container));
    front.passHeld();
    await heldBeforeAnswered(next, request);
    claimed = await keyRecord(key);
  }
  assert.ok(claimed, 'the request claimed its key before its held write');
  return claimed;
}

/**
 * Starts a process behind the front, sends it the validation with `key`, holds its first write into
 * `container` and kills it there; returns the key's record as the dead process left it.
 */
async function killWhileHeld(container: 'audit' | 'history', question: string, key: string): Promise<IdempotencyRecord> {
  const { child, url } = await startProcess(front.url);
  const held = front.holdWhen(isStoreCall(container));
  const lost = post(url, '/api/v1/validate', validation(question), key).catch((error: Error) => error);
  const claimed = await ownWriteHeld(container, key, held, lost);
  await kill(child);
  front.drop();
  assert.ok((await lost) instanceof Error, 'the first caller never got an answer');
  return claimed;
}

/** Waits for the held write; a request answered first (a 503 on a loaded machine, say) fails the test instead of hanging it. */
async function heldBeforeAnswered(held: Promise<unknown>, request: Promise<unknown>): Promise<void> {
  let answered = false;
  // Settles either way and never rejects: the request itself is awaited (or dropped) by the caller.
  const settled = request.then(
    () => {
      answered = true;
    },
    () => {
      answered = true;
    },
  );
  await Promise.race([held, settled]);
  if (answered) throw new Error(`the request was answered before its write was held: ${JSON.stringify(await request.catch(String))}`);
}

/** One history record, one `validation_created` event, the count up by one and one webhook delivery. */
async function assertRecordedOnce(question: string, validationId: string, totalBefore: number): Promise<void> {
  assert.deepEqual(
    (await recordsFor(question)).map((r) => r.validation_id),
    [validationId],
  );
  assert.deepEqual(await auditKinds(validationId), ['validation_created']);
  assert.equal(await total(), totalBefore + 1);
  assert.equal(await deliveriesFor(validationId), 1);
}

/**
 * A write of items into the container (a create or a batch), not a query nor the SDK's own reads of
 * the container's metadata, which the recovery pass at start may cause at any moment.
 */
const isStoreCall = (container: string) => (req: IncomingMessage) =>
  req.method === 'POST' && req.url?.endsWith(`/colls/${container}/docs`) === true && req.headers['x-ms-documentdb-isquery'] === undefined;

describe('a validation whose process dies, retried with the same Idempotency-Key on another process', () => {
  before(async () => {
    await new Promise<void>((resolve) => emulator.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    front = await startHoldingFront(emulator);
    const webhook = { enabled: true, include_successful: true, url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/` };
    fixture = await writeFixture({ overrides: { acme: { outbound: { allow: ['127.0.0.1'] }, webhook } } });
    env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      TENANTS_FILE: fixture.file,
      COSMOS_KEY: cosmosKey,
      JWT_SECRET: generateApiKey().key,
      ANONYMOUS_RATE_LIMIT: '100000',
    };
    survivor = (await startProcess(emulatorUrl())).url;
  });
  after(async () => {
    for (const child of children) child.kill('SIGKILL');
    await front.close();
    receiver.closeAllConnections();
    receiver.close();
    emulator.closeAllConnections();
    await new Promise<void>((resolve) => emulator.close(() => resolve()));
  });

  test('a holder that is slow but alive keeps its key through renewals, for several lease lengths', async () => {
    // Its held write may take longer than the lease, though not than its store timeout (which would end the request).
    const { url } = await startProcess(front.url, { IDEMPOTENCY_LEASE_MS: String(slowLeaseMs), STORE_TIMEOUT_MS: '60000' });
    const question = 'How many days of leave do staff get (slow holder)?';
    const key = `slow-${Date.now()}`;
    const held = front.holdWhen(isStoreCall('history'));
    const first = post(url, '/api/v1/validate', validation(question), key);
    assert.equal((await ownWriteHeld('history', key, held, first)).state, 'in_progress', 'the held request holds the key');
    // Two and a half lease lengths: every retry meanwhile is told to come back, none takes over.
    const until = Date.now() + 2.5 * slowLeaseMs;
    let retries = 0;
    while (Date.now() < until) {
      const retry = await post(survivor, '/api/v1/validate', validation(question), key);
      assert.equal(retry.status, 409, JSON.stringify(retry.body));
      assert.equal(retry.body.code, 'idempotency_in_progress');
      const wait = Number(retry.headers.get('retry-after'));
      assert.ok(wait >= 1 && wait <= slowLeaseMs / 1000, `Retry-After ${wait} within the lease`);
      retries += 1;
      await sleep(1000);
    }
    assert.ok(retries >= 5);
    front.letThrough();
    const answered = await first;
    assert.equal(answered.status, 200, JSON.stringify(answered.body));
    const replay = await post(survivor, '/api/v1/validate', validation(question), key);
    assert.equal(replay.status, 200);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(replay.body.validation_id, answered.body.validation_id);
    assert.deepEqual(
      (await recordsFor(question)).map((r) => r.validation_id),
      [answered.body.validation_id],
    );
    assert.equal(await deliveriesFor(answered.body.validation_id), 1);
  });

  test('killed after the record was written: the retry finishes it and answers with it, once', async () => {
    const question = 'How many days of leave do staff get (killed after the write)?';
    const key = `after-write-${Date.now()}`;
    const before = await total();
    // The record's batch is written; the process is stopped as it appends the audit events.
    await killWhileHeld('audit', question, key);
    const written = await recordsFor(question);
    assert.equal(written.length, 1, 'the dead process had recorded the validation');

    const { reply, waits } = await retryUntilAnswered(validation(question), key);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.equal(reply.body.validation_id, written[0].validation_id, 'the answer is the record the dead process wrote');
    assert.equal(await recordKeyId(reply.body.validation_id), IdempotencyStore.recordId(key), 'the record carries its key');
    assert.ok(
      waits.every((wait) => wait >= 1 && wait <= leaseMs / 1000),
      `each 409 said when to retry, within the lease: ${waits}`,
    );
    await assertRecordedOnce(question, reply.body.validation_id, before);
    const replay = await post(survivor, '/api/v1/validate', validation(question), key);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(replay.body.validation_id, reply.body.validation_id);
  });

  test('killed before anything was written: the retry validates once, under the id bound when the key was claimed', async () => {
    const question = 'How many days of leave do staff get (killed before the write)?';
    const key = `before-write-${Date.now()}`;
    const before = await total();
    const claimed = await killWhileHeld('history', question, key);
    assert.deepEqual(await recordsFor(question), [], 'nothing was recorded');

    const { reply } = await retryUntilAnswered(validation(question), key);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.equal(reply.body.validation_id, `val_${claimed.bound_id}`);
    assert.equal(await recordKeyId(reply.body.validation_id), IdempotencyStore.recordId(key));
    await assertRecordedOnce(question, reply.body.validation_id, before);
  });
});
