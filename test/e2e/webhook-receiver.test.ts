// The example webhook receiver, driven over HTTP on loopback with the contract's example event.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { ValidationFindingsEvent } from '@groundcheck/sdk';
import { createReceiver } from '../../examples/webhook-receiver.js';
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
