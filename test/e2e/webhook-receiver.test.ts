// The example webhook receiver, driven over HTTP on loopback with the contract's example event:
// tokens during a rotation, the Standard Webhooks signature, deduplication, and the answer sent
// before the consumer's work.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ValidationFindingsEvent } from '@groundcheck/sdk';
import { createReceiver } from '../../examples/webhook-receiver/receiver.js';
import { signWebhook } from '../../server/src/services/webhooks/signature.js';
import { rawSpec } from '../support/spec.js';

const event = (
  rawSpec().webhooks!['service.validation.findings'] as unknown as {
    post: { requestBody: { content: { 'application/json': { example: ValidationFindingsEvent } } } };
  }
).post.requestBody.content['application/json'].example;
const received: ValidationFindingsEvent[] = [];
const receiver = createReceiver({ tokens: ['new-token-0123456789', 'old-token-0123456789'], onEvent: (e) => void received.push(e) });
let url: string;

before(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;
});
after(() => receiver.close());

const deliver = (body: unknown, token?: string) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });

test('accepts a delivery with the current or the previous token, once per event_id', async () => {
  assert.equal((await deliver(event, 'new-token-0123456789')).status, 204);
  assert.equal((await deliver(event, 'old-token-0123456789')).status, 204);
  assert.equal((await deliver({ ...event, event_id: 'evt_01JD3X8R2K4M6P8R0T2V4X6Z8C' }, 'old-token-0123456789')).status, 204);
  assert.deepEqual(
    received.map((e) => e.event_id),
    [event.event_id, 'evt_01JD3X8R2K4M6P8R0T2V4X6Z8C'],
  );
});

test('refuses a wrong or missing token and a malformed payload', async () => {
  const before = received.length;
  assert.equal((await deliver(event, 'guessed-token-012345')).status, 401);
  assert.equal((await deliver(event)).status, 401);
  assert.equal((await deliver({ event_type: 'service.validation.findings' }, 'new-token-0123456789')).status, 400);
  assert.equal(received.length, before);
});

test('with a signing secret: a signed delivery passes, an unsigned or tampered one is 401', async () => {
  const secret = `whsec_${Buffer.from('thirty-two-bytes-of-signing-key!').toString('base64')}`;
  const signed = createReceiver({ tokens: ['new-token-0123456789'], signingSecrets: [secret], onEvent: () => {} });
  await new Promise<void>((resolve) => signed.listen(0, '127.0.0.1', resolve));
  const at = `http://127.0.0.1:${(signed.address() as AddressInfo).port}/`;
  const body = JSON.stringify(event);
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = (signature?: string) => ({
    'content-type': 'application/json',
    authorization: 'Bearer new-token-0123456789',
    'webhook-id': event.event_id,
    'webhook-timestamp': String(timestamp),
    ...(signature ? { 'webhook-signature': signature } : {}),
  });
  const post = (signature?: string, sent = body) => fetch(at, { method: 'POST', headers: headers(signature), body: sent });
  try {
    const signature = signWebhook(secret, event.event_id, timestamp, body);
    assert.equal((await post(signature)).status, 204);
    assert.equal((await post()).status, 401);
    assert.equal((await post(signature, `${body} `)).status, 401);
  } finally {
    signed.close();
  }
});

test('answers before the consumer runs, and a slow consumer does not hold the answer', async () => {
  let finished = false;
  const slow = createReceiver({
    tokens: ['new-token-0123456789'],
    onEvent: async () => {
      await sleep(300);
      finished = true;
    },
  });
  await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
  const at = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/`;
  try {
    const reply = await fetch(at, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer new-token-0123456789' },
      body: JSON.stringify(event),
    });
    assert.equal(reply.status, 204);
    assert.equal(finished, false, 'answered before the work was done');
    for (let i = 0; i < 50 && !finished; i += 1) await sleep(20);
    assert.equal(finished, true, 'the work ran after the answer');
  } finally {
    slow.close();
  }
});
