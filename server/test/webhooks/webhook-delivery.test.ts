import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ValidationFindingsEvent } from '@groundcheck/contract';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { pino } from 'pino';
import { verifyWebhook } from '../../../sdk/src/webhooks.js';
import { dereferencedSpec } from '../../../test/support/spec.js';
import { defaultThresholds } from '../../src/engine/index.js';
import { ManualClock } from '../../src/lib/clock.js';
import { signWebhook } from '../../src/services/webhooks/signature.js';
import { WebhookDelivery } from '../../src/services/webhooks/webhook-delivery.js';
import type { Tenant } from '../../src/tenants/tenant.js';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let receiver: Server;
let received: Received[] = [];
let base: string;
const token = 'webhook-token-0123456789';
const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;

before(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', async () => {
      received.push({ path: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (req.url === '/slow') await sleep(10_000);
      if (req.url === '/fails') res.statusCode = 500;
      if (req.url === '/redirects') {
        res.statusCode = 307;
        res.setHeader('location', `${base}/elsewhere`);
      }
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
after(() => {
  receiver.closeAllConnections();
  receiver.close();
});

function tenant(path: string, webhook: Partial<Tenant['webhook']> = {}, allow = ['127.0.0.1']): Tenant {
  return {
    customerId: 'acme',
    name: 'Acme Corporation',
    region: 'local',
    features: { document_templates: true, audit_trail: true },
    webhook: { enabled: true, url: `${base}${path}`, bearerToken: token, signingSecret: secret, includeSuccessful: false, ...webhook },
    workflow: { reviewRequired: 'never' },
    engineThresholds: defaultThresholds,
    calibration: { mode: 'suggest', refitEvery: 50, targetPrecision: 0.9, minDecisions: 200, minEach: 30 },
    verifier: { choice: null, judgeBand: { low: 0.2, high: 0.8 }, entailmentWeight: 1 },
    rateLimit: { requests: 100, windowSeconds: 60 },
    auditRetentionDays: 365,
    outboundAllow: allow,
    apiKeys: [],
    auth: { local: null, oidc: null },
  };
}

async function exampleEvent(overrides: Partial<ValidationFindingsEvent> = {}): Promise<ValidationFindingsEvent> {
  const spec = (await dereferencedSpec()) as any;
  const example = spec.webhooks['service.validation.findings'].post.requestBody.content['application/json'].example;
  return { ...structuredClone(example), ...overrides };
}

function recorder() {
  const lines: Record<string, any>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).trim().split('\n')) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, log: pino({ level: 'debug' }, sink) };
}

async function until(condition: () => boolean, timeoutMs = 8000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(10);
  }
}

describe('Standard Webhooks signatures', () => {
  test("match the specification's published test vector", () => {
    const signature = signWebhook(
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      1614265330,
      '{"test": 2432232314}',
    );
    assert.equal(signature, 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  test('the SDK verifies the vector and refuses it when anything changed', async () => {
    const headers = {
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    };
    const body = '{"test": 2432232314}';
    const check = (
      overrides: Record<string, string>,
      payload = body,
      options: { toleranceInSeconds?: number } = { toleranceInSeconds: 1e10 },
    ) =>
      verifyWebhook({
        headers: { ...headers, ...overrides },
        body: payload,
        signingSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        ...options,
      });
    // The vector's payload is not a findings event: a valid signature gets as far as the payload check.
    await assert.rejects(check({}), { code: 'invalid_payload' });
    await assert.rejects(check({}, '{"test": 2432232315}'), { code: 'invalid_signature' });
    await assert.rejects(check({ 'webhook-id': 'msg_other' }), { code: 'invalid_signature' });
    await assert.rejects(check({ 'webhook-signature': 'v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=' }), { code: 'invalid_signature' });
    await assert.rejects(check({}, body, {}), { code: 'invalid_signature' }, 'a 2021 timestamp is outside the 5-minute tolerance');
    await assert.rejects(check({ 'webhook-signature': '' }), { code: 'missing_signature' });
  });
});

describe('webhook delivery', () => {
  test('posts the event with token, event id and a signature that the SDK verifies', async () => {
    received = [];
    const { log } = recorder();
    const delivery = new WebhookDelivery(log, new ManualClock(new Date()));
    const event = await exampleEvent();
    delivery.send(tenant('/ok'), event);
    await delivery.drain();
    assert.equal(received.length, 1);
    const [request] = received;
    assert.equal(request!.headers.authorization, `Bearer ${token}`);
    assert.equal(request!.headers['groundcheck-event-id'], event.event_id);
    assert.equal(request!.headers['webhook-id'], event.event_id);
    const verified = await verifyWebhook({ headers: request!.headers, body: request!.body, token, signingSecret: secret });
    assert.deepEqual(verified, event);
    const spec = (await dereferencedSpec()) as any;
    const ajv = new Ajv2020({ strict: false });
    addFormats.default(ajv);
    const validate = ajv.compile(spec.webhooks['service.validation.findings'].post.requestBody.content['application/json'].schema);
    assert.ok(validate(JSON.parse(request!.body)), JSON.stringify(validate.errors));
  });

  test('without a signing secret no signature headers are sent; without a token no Authorization', async () => {
    received = [];
    const delivery = new WebhookDelivery(recorder().log, new ManualClock(new Date()));
    delivery.send(tenant('/ok', { signingSecret: null, bearerToken: null }), await exampleEvent());
    await delivery.drain();
    assert.equal(received[0]!.headers['webhook-signature'], undefined);
    assert.equal(received[0]!.headers.authorization, undefined);
  });

  test('only validations with issues are sent unless include_successful; nothing when disabled', async () => {
    received = [];
    const delivery = new WebhookDelivery(recorder().log, new ManualClock(new Date()));
    delivery.send(tenant('/ok'), await exampleEvent({ issue_count: 0, issues: [] }));
    delivery.send(tenant('/ok', { enabled: false }), await exampleEvent());
    delivery.send(tenant('/ok', { includeSuccessful: true }), await exampleEvent({ issue_count: 0, issues: [] }));
    await delivery.drain();
    assert.equal(received.length, 1);
    assert.equal(JSON.parse(received[0]!.body).issue_count, 0);
  });

  test('a receiver that sleeps does not hold the sender; it fails after 5 s, logged once, not retried, token never logged', async () => {
    received = [];
    const { lines, log } = recorder();
    const delivery = new WebhookDelivery(log, new ManualClock(new Date()));
    const event = await exampleEvent();
    const started = Date.now();
    delivery.send(tenant('/slow'), event);
    assert.ok(Date.now() - started < 100, 'send returns at once');
    await until(() => lines.some((line) => /failed/.test(line.msg)));
    const failures = lines.filter((line) => /failed/.test(line.msg));
    assert.equal(failures.length, 1);
    assert.equal(failures[0]!.event_id, event.event_id);
    assert.equal(failures[0]!.validation_id, event.validation_id);
    assert.equal(failures[0]!.reason, 'timeout');
    assert.ok(Date.now() - started >= 4900);
    await sleep(200);
    assert.equal(received.length, 1, 'not retried');
    assert.doesNotMatch(JSON.stringify(lines), new RegExp(token));
  });

  test('a non-2xx answer and a redirect count as failures; the redirect is not followed', async () => {
    received = [];
    const { lines, log } = recorder();
    const delivery = new WebhookDelivery(log, new ManualClock(new Date()));
    delivery.send(tenant('/fails'), await exampleEvent());
    delivery.send(tenant('/redirects'), await exampleEvent());
    await delivery.drain();
    assert.deepEqual(received.map((r) => r.path).sort(), ['/fails', '/redirects']);
    assert.deepEqual(
      lines
        .filter((line) => /failed/.test(line.msg))
        .map((line) => line.status)
        .sort(),
      [307, 500],
    );
  });

  test('a receiver the tenant does not allow is never contacted', async () => {
    received = [];
    const { lines, log } = recorder();
    const delivery = new WebhookDelivery(log, new ManualClock(new Date()));
    delivery.send(tenant('/ok', {}, []), await exampleEvent());
    await delivery.drain();
    assert.equal(received.length, 0);
    assert.equal(lines.find((line) => /failed/.test(line.msg))?.reason, 'address_not_allowed');
  });

  test('drain waits for deliveries under way, at most its timeout', async () => {
    const delivery = new WebhookDelivery(recorder().log, new ManualClock(new Date()));
    delivery.send(tenant('/slow'), await exampleEvent());
    const started = Date.now();
    await delivery.drain(300);
    assert.ok(Date.now() - started < 1000);
  });
});
