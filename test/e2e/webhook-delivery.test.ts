// The reference server's webhook, delivered after a real validation to the example receiver on
// loopback, which checks the token and the Standard Webhooks signature with the SDK; the polling
// reconciliation example; and a receiver that sleeps, which the validation's response does not wait for.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient, type ValidationFindingsEvent } from '@groundcheck/sdk';
import { createReceiver } from '../../examples/webhook-receiver/receiver.js';
import { reconcile } from '../../examples/webhook-receiver/reconcile.js';
import { writeFixture } from '../../server/test/support/fixtures.js';
import { startTestServer, type TestServer } from '../../server/test/support/harness.js';

const token = 'receiver-token-0123456789';
const signingSecret = `whsec_${Buffer.from('thirty-two-bytes-of-signing-key!').toString('base64')}`;
const received: ValidationFindingsEvent[] = [];
const receiver = createReceiver({ tokens: [token], signingSecrets: [signingSecret], onEvent: (event) => void received.push(event) });
let slowFinished = 0;
let slowReceived = 0;
const slow = createServer((req, res) => {
  slowReceived += 1;
  req.resume();
  req.on('end', () => {
    setTimeout(() => {
      slowFinished += 1;
      res.end();
    }, 10_000).unref();
  });
});
let server: TestServer;

const listen = async (s: typeof slow) => {
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}/`;
};

before(async () => {
  const receiverUrl = await listen(receiver);
  const slowUrl = await listen(slow);
  const webhook = { enabled: true, include_successful: true, bearer_token: token };
  const fixture = await writeFixture({
    overrides: {
      acme: { outbound: { allow: ['127.0.0.1'] }, webhook: { ...webhook, url: receiverUrl, signing_secret: signingSecret } },
      globex: { outbound: { allow: ['127.0.0.1'] }, webhook: { ...webhook, url: slowUrl } },
    },
  });
  server = await startTestServer({ fixture });
});
after(async () => {
  await server.close();
  for (const s of [receiver, slow]) {
    s.closeAllConnections();
    s.close();
  }
});

const body = {
  mode: 'validate',
  question: 'How long is the warranty?',
  chatbot_response: 'The warranty lasts three years.',
  inline_text: 'All devices come with a two-year warranty against manufacturing defects.',
};

test('the example receiver accepts the delivery: bearer token and signature verified by the SDK', async () => {
  const reply = await server.call('/api/v1/validate', body, { token: await server.login('acme', 'user') });
  assert.equal(reply.status, 200, reply.text);
  for (let i = 0; i < 200 && received.length === 0; i += 1) await sleep(20);
  assert.equal(received.length, 1);
  assert.equal(received[0]!.validation_id, reply.body.validation_id);
  assert.equal(received[0]!.issue_count, reply.body.issue_count);
});

test('the reconciliation example finds by polling the history what the webhook did not bring', async () => {
  const started = new Date(Date.now() - 60_000);
  const client = createClient({ baseUrl: server.url, token: await server.login('acme', 'user') });
  // What the webhook brought so far; the next validation stands for one whose delivery was lost.
  const delivered = new Set(received.map((e) => e.validation_id));
  const reply = await server.call('/api/v1/validate', body, { token: await server.login('acme', 'user') });
  assert.equal(reply.status, 200, reply.text);
  const missed: string[] = [];
  const count = await reconcile(client, {
    since: started,
    handled: (id) => delivered.has(id),
    onMissed: (r) => void missed.push(r.validation_id),
  });
  assert.ok(missed.includes(reply.body.validation_id), JSON.stringify(missed));
  assert.ok(!missed.some((id) => delivered.has(id)));
  assert.equal(count, missed.length);
});

test('a receiver that sleeps 10 seconds does not hold the response', async () => {
  const started = performance.now();
  const reply = await server.call('/api/v1/validate', body, { token: await server.login('globex', 'user') });
  const elapsed = performance.now() - started;
  assert.equal(reply.status, 200, reply.text);
  for (let i = 0; i < 200 && slowReceived === 0; i += 1) await sleep(20);
  assert.equal(slowReceived, 1, 'the delivery reached the receiver');
  // The receiver has not answered yet, and the response is long back: it never waited for it.
  assert.equal(slowFinished, 0);
  assert.ok(elapsed < 5_000, `${elapsed} ms`);
});
