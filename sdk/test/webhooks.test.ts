// Webhook verification: right, wrong, missing and rotated tokens, the payload's shape, and a real
// receiver on loopback that verifies what fetch sends it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { parse } from 'yaml';
import { parseWebhookEvent, type ValidationFindingsEvent, verifyWebhook, WebhookVerificationError } from '../src/index.js';

const spec = parse(readFileSync(new URL('../../contract/openapi.yaml', import.meta.url), 'utf8'));
/** The contract's own example payload. */
const event: ValidationFindingsEvent = spec.webhooks['service.validation.findings'].post.requestBody.content['application/json'].example;
const body = JSON.stringify(event);
const token = 'whk_current_2b7f3c9d41e8a6';
const oldToken = 'whk_previous_9a1c5e7b3d2f80';
const headersFor = (bearer: string | null, eventId: string | null = event.event_id): Record<string, string> => ({
  'content-type': 'application/json',
  ...(bearer === null ? {} : { authorization: `Bearer ${bearer}` }),
  ...(eventId === null ? {} : { 'groundcheck-event-id': eventId }),
});

async function rejection(work: Promise<unknown>): Promise<WebhookVerificationError> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  assert.ok(error instanceof WebhookVerificationError, `expected a WebhookVerificationError, got ${String(error)}`);
  return error;
}

describe('verifyWebhook', () => {
  test('the right token: returns the typed event', async () => {
    const verified = await verifyWebhook({ headers: new Headers(headersFor(token)), body, token });
    assert.deepEqual(verified, event);
    assert.equal(verified.event_type, 'service.validation.findings');
  });

  test('a wrong token: invalid_token', async () => {
    const error = await rejection(verifyWebhook({ headers: headersFor('whk_guess'), body, token }));
    assert.equal(error.code, 'invalid_token');
    assert.equal(error.status, undefined);
    // A token that shares a prefix with the right one, or is longer, is wrong too.
    await rejection(verifyWebhook({ headers: headersFor(token.slice(0, -1)), body, token }));
    await rejection(verifyWebhook({ headers: headersFor(`${token}x`), body, token }));
  });

  test('a missing or malformed Authorization header: missing_token', async () => {
    for (const headers of [headersFor(null), { authorization: `Basic ${token}` }, { authorization: 'Bearer ' }, { authorization: token }]) {
      const error = await rejection(verifyWebhook({ headers, body, token }));
      assert.equal(error.code, 'missing_token');
    }
  });

  test('during a rotation both the old and the new token pass, and nothing else', async () => {
    const tokens = [oldToken, token];
    assert.deepEqual(await verifyWebhook({ headers: headersFor(oldToken), body, token: tokens }), event);
    assert.deepEqual(await verifyWebhook({ headers: headersFor(token), body, token: tokens }), event);
    assert.equal((await rejection(verifyWebhook({ headers: headersFor('whk_other'), body, token: tokens }))).code, 'invalid_token');
    // After the rotation the old token is refused.
    assert.equal((await rejection(verifyWebhook({ headers: headersFor(oldToken), body, token }))).code, 'invalid_token');
  });

  test("accepts Node's header record, a Buffer or already-parsed body, and a lower-case scheme", async () => {
    const nodeHeaders = { authorization: `bearer ${token}`, 'groundcheck-event-id': [event.event_id] };
    assert.deepEqual(await verifyWebhook({ headers: nodeHeaders, body: Buffer.from(body), token }), event);
    assert.deepEqual(await verifyWebhook({ headers: { Authorization: `Bearer ${token}` }, body: JSON.parse(body), token }), event);
    assert.deepEqual(await verifyWebhook({ headers: headersFor(token), body: new TextEncoder().encode(body).buffer, token }), event);
  });

  test('checks the token before the body', async () => {
    const error = await rejection(verifyWebhook({ headers: headersFor('wrong'), body: 'not json', token }));
    assert.equal(error.code, 'invalid_token');
  });

  test('an event id header that does not match the payload: invalid_payload', async () => {
    const error = await rejection(verifyWebhook({ headers: headersFor(token, 'evt_01JD3X8R2K4M6P8R0T2V4XXXXX'), body, token }));
    assert.equal(error.code, 'invalid_payload');
  });

  test('refuses to verify against no token at all', async () => {
    for (const none of ['', [], ['']] as const) {
      await assert.rejects(verifyWebhook({ headers: headersFor(''), body, token: none }), TypeError);
    }
  });
});

describe('parseWebhookEvent', () => {
  test("accepts the contract's example, extra fields and enum values it does not know", () => {
    const future = { ...event, new_field: 1, severity: 'catastrophic', findings: [{ ...event.findings[0], category: 'new_category' }] };
    assert.deepEqual(parseWebhookEvent(JSON.stringify(future)), future);
  });

  for (const [name, change, message] of [
    ['a missing field', (e: Record<string, unknown>) => delete e.validation_id, /\/validation_id must be string/],
    ['a wrong type', (e: Record<string, unknown>) => (e.issue_count = '1'), /\/issue_count must be integer/],
    ['a fraction where an integer belongs', (e: Record<string, unknown>) => (e.timestamp = 1.5), /\/timestamp must be integer/],
    [
      'another event type',
      (e: Record<string, unknown>) => (e.event_type = 'service.validation.created'),
      /\/event_type must be "service.validation.findings"/,
    ],
    [
      'a finding without its title',
      (e: Record<string, unknown>) => delete (e.findings as Record<string, unknown>[])[0]!.title,
      /\/findings\/0\/title must be string/,
    ],
    ['issues that are not strings', (e: Record<string, unknown>) => (e.issues = [1]), /\/issues\/0 must be string/],
    ['a user that is not an object', (e: Record<string, unknown>) => (e.user = 'usr_1'), /\/user must be an object/],
  ] as const) {
    test(`rejects ${name}`, () => {
      const broken = structuredClone(event) as unknown as Record<string, unknown>;
      change(broken);
      assert.throws(
        () => parseWebhookEvent(JSON.stringify(broken)),
        (error: unknown) => {
          assert.ok(error instanceof WebhookVerificationError);
          assert.equal(error.code, 'invalid_payload');
          assert.match(error.message, message);
          return true;
        },
      );
    });
  }

  test('rejects a body that is not JSON, or not an object', () => {
    assert.throws(() => parseWebhookEvent('{"event_id":'), /not JSON/);
    assert.throws(() => parseWebhookEvent('[]'), /the body must be an object/);
  });
});

describe('a receiver on loopback', () => {
  test('verifies what the sender posts: 204 for the right token, 401 for a wrong one', async () => {
    const received: ValidationFindingsEvent[] = [];
    const receiver = createServer(async (req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      try {
        received.push(await verifyWebhook({ headers: req.headers, body: Buffer.concat(chunks), token: [oldToken, token] }));
        res.writeHead(204).end();
      } catch (error) {
        res.writeHead(error instanceof WebhookVerificationError && error.code !== 'invalid_payload' ? 401 : 400).end();
      }
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/groundcheck`;
    try {
      const deliver = (bearer: string | null) => fetch(url, { method: 'POST', headers: headersFor(bearer), body });
      assert.equal((await deliver(token)).status, 204);
      assert.equal((await deliver(oldToken)).status, 204);
      assert.equal((await deliver('whk_wrong')).status, 401);
      assert.equal((await deliver(null)).status, 401);
      assert.deepEqual(received, [event, event]);
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});

describe('without Web Crypto (Node 18 without --experimental-global-webcrypto)', () => {
  test('tokens are still compared, and validate still gets an Idempotency-Key', async () => {
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'crypto')!;
    Object.defineProperty(globalThis, 'crypto', { value: undefined, configurable: true, writable: true });
    try {
      assert.equal(typeof crypto, 'undefined');
      assert.deepEqual(await verifyWebhook({ headers: headersFor(token), body, token: [oldToken, token] }), event);
      assert.equal((await rejection(verifyWebhook({ headers: headersFor(`${token}x`), body, token }))).code, 'invalid_token');
      assert.equal((await rejection(verifyWebhook({ headers: headersFor('w'), body, token }))).code, 'invalid_token');
      const { newIdempotencyKey } = await import('../src/request.js');
      const keys = new Set(Array.from({ length: 100 }, () => newIdempotencyKey()));
      assert.equal(keys.size, 100);
      for (const key of keys) assert.match(key, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    } finally {
      Object.defineProperty(globalThis, 'crypto', descriptor);
    }
  });
});

describe('Standard Webhooks signatures', () => {
  const secret = `whsec_${btoa('current-secret-of-32-bytes-long!')}`;
  const oldSecret = `whsec_${btoa('previous-secret-32-bytes-long!!!')}`;

  async function sign(signingSecret: string, id: string, timestamp: number, payload: string): Promise<string> {
    const key = await crypto.subtle.importKey(
      'raw',
      Uint8Array.from(atob(signingSecret.slice(6)), (c) => c.charCodeAt(0)),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${id}.${timestamp}.${payload}`)));
    return `v1,${btoa(String.fromCharCode(...mac))}`;
  }

  const signedHeaders = async (signingSecret: string, timestamp = Math.floor(Date.now() / 1000), payload = body) => ({
    ...headersFor(token),
    'webhook-id': event.event_id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': await sign(signingSecret, event.event_id, timestamp, payload),
  });

  test('a signed delivery verifies with the secret, alone or with the token', async () => {
    assert.deepEqual(await verifyWebhook({ headers: await signedHeaders(secret), body, signingSecret: secret }), event);
    assert.deepEqual(await verifyWebhook({ headers: await signedHeaders(secret), body, signingSecret: secret, token }), event);
  });

  test('during a rotation either secret passes; a signature list with one good entry passes', async () => {
    assert.deepEqual(await verifyWebhook({ headers: await signedHeaders(oldSecret), body, signingSecret: [secret, oldSecret] }), event);
    const headers = await signedHeaders(secret);
    headers['webhook-signature'] = `v1,bm90LWEtc2lnbmF0dXJl ${headers['webhook-signature']}`;
    assert.deepEqual(await verifyWebhook({ headers, body, signingSecret: secret }), event);
  });

  test('a changed body, another secret, an old timestamp or no signature are refused', async () => {
    assert.equal(
      (await rejection(verifyWebhook({ headers: await signedHeaders(secret), body: `${body} `, signingSecret: secret }))).code,
      'invalid_signature',
    );
    assert.equal(
      (await rejection(verifyWebhook({ headers: await signedHeaders(oldSecret), body, signingSecret: secret }))).code,
      'invalid_signature',
    );
    const stale = await signedHeaders(secret, Math.floor(Date.now() / 1000) - 301);
    assert.equal((await rejection(verifyWebhook({ headers: stale, body, signingSecret: secret }))).code, 'invalid_signature');
    assert.equal((await rejection(verifyWebhook({ headers: headersFor(token), body, signingSecret: secret }))).code, 'missing_signature');
  });

  test('a parsed body cannot be checked against a signature', async () => {
    await assert.rejects(
      verifyWebhook({ headers: await signedHeaders(secret), body: event as unknown as Record<string, unknown>, signingSecret: secret }),
      TypeError,
    );
  });
});
