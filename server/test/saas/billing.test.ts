// The billing portal (section 4.7, decision row 36) through HTTP, with the real Stripe SDK talking
// to a stand-in for Stripe's endpoint on loopback: what it sends, what the caller gets back, the
// 404 without a key or a customer id, and that the key and the customer are stored, logged and
// returned nowhere.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import { ConfigError, loadConfig } from '../../src/config.js';
import { snapshot } from '../support/cosmos-snapshot.js';
import { writeFixture } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/harness.js';
import { portalUrl, type StripeStandIn, startStripeStandIn } from './stripe-stand-in.js';

const secretKey = 'sk_test_51StandInKeyForGroundcheckTests0123456789';
const customerId = 'cus_StandIn0123456789';
const returnUrl = 'https://app.acme.example/settings/billing';

let standIn: StripeStandIn;
let configured: TestServer;
let unconfigured: TestServer;
const logLines: string[] = [];

before(async () => {
  standIn = await startStripeStandIn();
  const fixture = await writeFixture({ overrides: { acme: { billing: { stripe_customer_id: customerId } } } });
  const log = pino(
    { level: 'info' },
    new Writable({
      write: (chunk, _encoding, done) => {
        logLines.push(String(chunk));
        done();
      },
    }),
  );
  [configured, unconfigured] = await Promise.all([
    startTestServer({ fixture, env: { STRIPE_SECRET_KEY: secretKey }, stripeEndpoint: standIn.endpoint, log }),
    startTestServer({ fixture }),
  ]);
});
after(async () => {
  await Promise.all([configured.close(), unconfigured.close()]);
  await standIn.close();
});

async function portal(server: TestServer, customer: string, body?: object) {
  return server.call('/api/v1/saas/billing-portal', body, { token: await server.login(customer, 'admin') });
}

describe('configured', () => {
  test("creates a portal session for the tenant's customer with the return URL, through the Stripe SDK", async () => {
    standIn.mode = 'session';
    const sent = standIn.requests.length;
    const reply = await portal(configured, 'acme', { return_url: returnUrl });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(Object.keys(reply.body).sort(), ['expires_at', 'url']);
    assert.equal(reply.body.url, portalUrl(`bps_standin${String(standIn.requests.length).padStart(6, '0')}`));
    assert.equal(reply.body.expires_at, new Date((standIn.created + 5 * 60) * 1000).toISOString());

    assert.equal(standIn.requests.length, sent + 1);
    const request = standIn.requests.at(-1)!;
    assert.equal(request.method, 'POST');
    assert.equal(request.path, '/v1/billing_portal/sessions');
    assert.equal(request.headers.authorization, `Bearer ${secretKey}`);
    assert.match(String(request.headers['content-type']), /^application\/x-www-form-urlencoded/);
    assert.match(String(request.headers['stripe-version']), /^\d{4}-\d{2}-\d{2}/);
    assert.match(String(request.headers['user-agent']), /^Stripe\/v1 NodeBindings\//);
    assert.match(String(request.headers['idempotency-key']), /.+/, 'the SDK makes its retries safe');
    assert.deepEqual(request.form, { customer: customerId, return_url: returnUrl });
  });

  test('without return_url the SDK sends only the customer', async () => {
    standIn.mode = 'session';
    const reply = await portal(configured, 'acme');
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(standIn.requests.at(-1)!.form, { customer: customerId });
  });

  test('a tenant without a customer id answers 404 billing_not_configured without calling Stripe', async () => {
    const sent = standIn.requests.length;
    const reply = await portal(configured, 'globex', { return_url: returnUrl });
    assert.deepEqual([reply.status, reply.body.code], [404, 'billing_not_configured']);
    assert.equal(standIn.requests.length, sent);
  });

  test('Stripe unavailable: 503 with Retry-After; Stripe refusing the customer: 500; neither shows the key or the customer', async () => {
    standIn.mode = 'unavailable';
    const down = await portal(configured, 'acme');
    assert.deepEqual([down.status, down.body.code, down.headers.get('retry-after')], [503, 'service_unavailable', '60']);
    standIn.mode = 'unknown_customer';
    const refused = await portal(configured, 'acme');
    assert.deepEqual([refused.status, refused.body.code], [500, 'internal_error']);
    for (const reply of [down, refused]) {
      assert.ok(!reply.text.includes(secretKey) && !reply.text.includes(customerId), reply.text);
    }
    standIn.mode = 'session';
  });

  test('the key, the customer and the portal URL are stored nowhere; the key is logged nowhere', async () => {
    const everything = await snapshot(configured.cosmos);
    for (const value of [secretKey, customerId, 'billing.stripe.com', 'bps_standin']) assert.ok(!everything.includes(value), value);
    const storage = configured.container.storage.forTenant('acme');
    for await (const object of storage.list('')) assert.fail(`unexpected stored object ${object.key}`);
    const log = logLines.join('');
    assert.ok(!log.includes(secretKey));
    assert.ok(!log.includes('sk_test_'));
    assert.ok(!log.includes(customerId));
  });
});

test('without STRIPE_SECRET_KEY the portal answers 404 billing_not_configured', async () => {
  const sent = standIn.requests.length;
  const reply = await portal(unconfigured, 'acme', { return_url: returnUrl });
  assert.deepEqual([reply.status, reply.body.code], [404, 'billing_not_configured']);
  assert.equal(standIn.requests.length, sent);
});

test('STRIPE_SECRET_KEY must look like a Stripe key, and the refusal does not repeat it', () => {
  assert.equal(loadConfig({ STRIPE_SECRET_KEY: secretKey }).stripeSecretKey, secretKey);
  assert.equal(loadConfig({ STRIPE_SECRET_KEY: 'rk_live_restrictedKey01' }).stripeSecretKey, 'rk_live_restrictedKey01');
  assert.equal(loadConfig({}).stripeSecretKey, null);
  for (const wrong of ['pk_test_publishableKey0123', 'sk_test_ has space', 'whsec_abcdefghijkl']) {
    assert.throws(
      () => loadConfig({ STRIPE_SECRET_KEY: wrong }),
      (error: unknown) => error instanceof ConfigError && /STRIPE_SECRET_KEY/.test(error.message) && !error.message.includes(wrong),
    );
  }
});
