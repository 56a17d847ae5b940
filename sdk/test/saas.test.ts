// The SaaS and account lifecycle through the built SDK (`@groundcheck/sdk`, as an integrator
// installs it) against the real reference server: users from creation to deletion with access
// revoked at once, the conflicts an admin can meet, the billing portal through the Stripe SDK to a
// stand-in on loopback, the export opened with yauzl, and the account deleted (on its own server).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { AuthenticationError, BadRequestError, ConflictError, createClient, type GroundcheckClient, NotFoundError } from '@groundcheck/sdk';
import { jsonLines, readZip } from '../../server/test/account/zip-reader.js';
import { portalUrl, type StripeStandIn, startStripeStandIn } from '../../server/test/saas/stripe-stand-in.js';
import { email, password, writeFixture } from '../../server/test/support/fixtures.js';
import type { TestServer } from '../../server/test/support/harness.js';
import { startReferenceServer } from './support/reference-server.js';

const stripeKey = 'sk_test_51SdkStandInKey0123456789abcdef';
const stripeCustomer = 'cus_SdkStandIn012345';

let standIn: StripeStandIn;
let server: TestServer;
let admin: GroundcheckClient;

/** Signs in with the built SDK, as an integrator's code does. */
async function signIn(target: TestServer, customerId: string, address: string, secret: string): Promise<GroundcheckClient> {
  const { token } = await createClient({ baseUrl: target.url }).auth.login({ email: address, password: secret, customer_id: customerId });
  return createClient({ baseUrl: target.url, token });
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => assert.fail('expected a refusal'),
    (error: unknown) => error,
  );

before(async () => {
  standIn = await startStripeStandIn();
  const fixture = await writeFixture({ overrides: { acme: { billing: { stripe_customer_id: stripeCustomer } } } });
  ({ server } = await startReferenceServer({ fixture, env: { STRIPE_SECRET_KEY: stripeKey }, stripeEndpoint: standIn.endpoint }));
  admin = await signIn(server, 'acme', email('acme', 'admin'), password('acme', 'admin'));
});
after(async () => {
  await server.close();
  await standIn.close();
});

describe('users', () => {
  test('create, sign in, change, iterate, disable, enable, delete: access follows at once, a change of role or status ends the session', async () => {
    const secret = 'copper-lantern-meadow-31';
    const created = await admin.saas.users.save({
      email: 'sam.sdk@acme.test',
      name: 'Sam',
      role: 'user',
      data_access_roles: ['hr'],
      password: secret,
    });
    assert.match(created.user_id, /^usr_/);
    assert.deepEqual([created.email, created.role, created.status, created.last_login_at], ['sam.sdk@acme.test', 'user', 'active', null]);
    assert.match(created.lastResponse.requestId!, /^req_/);

    let sam = await signIn(server, 'acme', 'sam.sdk@acme.test', secret);
    assert.equal((await sam.auth.me()).role, 'user');
    assert.equal((await admin.saas.users.save({ user_id: created.user_id, role: 'viewer' })).role, 'viewer');
    // A role change ends the session; signing in again carries the new role.
    const demoted = await refusal(sam.auth.me());
    assert.ok(demoted instanceof AuthenticationError && demoted.code === 'invalid_token', String(demoted));
    sam = await signIn(server, 'acme', 'sam.sdk@acme.test', secret);
    assert.equal((await sam.auth.me()).role, 'viewer');

    const emails: string[] = [];
    for await (const user of admin.saas.users.iterate({ limit: 2 })) emails.push(user.email);
    assert.deepEqual(emails, [...emails].sort());
    assert.ok(emails.includes('sam.sdk@acme.test') && emails.includes(email('acme', 'admin')));
    assert.equal(new Set(emails).size, emails.length);

    await admin.saas.users.save({ user_id: created.user_id, status: 'disabled' });
    const disabled = await refusal(sam.auth.me());
    assert.ok(disabled instanceof AuthenticationError && disabled.code === 'invalid_token', String(disabled));
    await admin.saas.users.save({ user_id: created.user_id, status: 'active' });
    // Enabling restores the password, not the session the disable ended.
    assert.ok((await refusal(sam.auth.me())) instanceof AuthenticationError);
    sam = await signIn(server, 'acme', 'sam.sdk@acme.test', secret);
    assert.equal((await sam.auth.me()).role, 'viewer');

    const deleted = await admin.saas.users.delete({ user_id: created.user_id });
    assert.deepEqual([deleted.user_id, deleted.deleted], [created.user_id, true]);
    const gone = await refusal(sam.auth.me());
    assert.ok(gone instanceof AuthenticationError && gone.code === 'invalid_token', String(gone));
    const missing = await refusal(admin.saas.users.delete({ user_id: created.user_id }));
    assert.ok(missing instanceof NotFoundError && missing.code === 'not_found', String(missing));
  });

  test('email_taken and last_admin are ConflictErrors with their codes; a weak password a BadRequestError', async () => {
    const taken = await refusal(admin.saas.users.save({ email: email('acme', 'user').toUpperCase(), role: 'user' }));
    assert.ok(taken instanceof ConflictError && taken.code === 'email_taken', String(taken));
    const self = (await admin.auth.me()).principal.id;
    const last = await refusal(admin.saas.users.save({ user_id: self, role: 'user' }));
    assert.ok(last instanceof ConflictError && last.code === 'last_admin', String(last));
    const lastDelete = await refusal(admin.saas.users.delete({ user_id: self }));
    assert.ok(lastDelete instanceof ConflictError && lastDelete.code === 'last_admin', String(lastDelete));
    const weak = await refusal(admin.saas.users.save({ email: 'weak.sdk@acme.test', role: 'user', password: 'password1234' }));
    assert.ok(weak instanceof BadRequestError && weak.code === 'invalid_request', String(weak));
    assert.equal(weak.problem?.errors?.[0]?.pointer, '/password');
  });

  test('an API-key client cannot use saas or account methods: the SDK leaves the key out and the server refuses', async () => {
    const key = server.apiKeyBody('acme', 'admin');
    const byKey = createClient({ baseUrl: server.url, customerId: key.customer_id, apiKey: key.api_key });
    for (const call of [
      () => byKey.saas.users.list(),
      () => byKey.saas.users.save({ email: 'key.sdk@acme.test', role: 'user' }),
      () => byKey.saas.billingPortal(),
      () => byKey.account.export(),
      () => byKey.account.delete({ confirmation: 'DELETE acme' }),
    ]) {
      const error = await refusal(call());
      assert.ok(error instanceof AuthenticationError && error.code === 'unauthenticated', String(error));
    }
    assert.equal((await admin.auth.me()).customer.customer_id, 'acme', 'the account is still there');
  });
});

test('billing portal: a link from the Stripe SDK for the configured customer; 404 for a tenant without one', async () => {
  const sent = standIn.requests.length;
  const session = await admin.saas.billingPortal({ return_url: 'https://app.acme.example/billing' });
  assert.equal(session.url, portalUrl(`bps_standin${String(standIn.requests.length).padStart(6, '0')}`));
  assert.equal(session.expires_at, new Date((standIn.created + 300) * 1000).toISOString());
  assert.equal(standIn.requests.length, sent + 1);
  const request = standIn.requests.at(-1)!;
  assert.deepEqual(
    [request.method, request.path, request.headers.authorization],
    ['POST', '/v1/billing_portal/sessions', `Bearer ${stripeKey}`],
  );
  assert.deepEqual(request.form, { customer: stripeCustomer, return_url: 'https://app.acme.example/billing' });

  const globex = await signIn(server, 'globex', email('globex', 'admin'), password('globex', 'admin'));
  const none = await refusal(globex.saas.billingPortal());
  assert.ok(none instanceof NotFoundError && none.code === 'billing_not_configured', String(none));
  assert.equal(standIn.requests.length, sent + 1);
});

test('account export: a ZIP whose manifest matches every file', async () => {
  const download = await admin.account.export();
  assert.equal(download.lastResponse.status, 200);
  assert.match(download.fileName ?? '', /\.zip$/);
  const entries = await readZip(Buffer.from(await new Response(download.body).arrayBuffer()));
  const manifest = JSON.parse(entries.at(-1)!.bytes.toString('utf8'));
  assert.equal(entries.at(-1)!.name, 'manifest.json');
  assert.deepEqual(
    manifest.files.map((f: { name: string }) => f.name),
    entries.slice(0, -1).map((e) => e.name),
  );
  for (const [i, file] of manifest.files.entries()) {
    const bytes = entries[i]!.bytes;
    assert.deepEqual(
      [file.records, file.bytes, file.sha256],
      [jsonLines(bytes).length, bytes.length, createHash('sha256').update(bytes).digest('hex')],
    );
  }
  const users = jsonLines(entries.find((e) => e.name === 'users.jsonl')!.bytes);
  assert.ok(users.some((u) => u.email === email('acme', 'admin')));
  assert.equal(manifest.tenant.billing_configured, true);
  assert.ok(!Buffer.concat(entries.map((e) => e.bytes)).includes(stripeCustomer));
});

test('account delete: a wrong confirmation is a BadRequestError; the right one ends the account (its own server)', async () => {
  const mismatch = await refusal(admin.account.delete({ confirmation: 'DELETE globex' }));
  assert.ok(mismatch instanceof BadRequestError && mismatch.code === 'confirmation_mismatch', String(mismatch));
  assert.equal((await admin.auth.me()).customer.customer_id, 'acme');

  const { server: own } = await startReferenceServer();
  try {
    const ownAdmin = await signIn(own, 'acme', email('acme', 'admin'), password('acme', 'admin'));
    const deleted = await ownAdmin.account.delete({ confirmation: 'DELETE acme' });
    assert.deepEqual([deleted.customer_id, deleted.deleted], ['acme', true]);
    assert.ok(!Number.isNaN(Date.parse(deleted.deleted_at)));
    const refused = await refusal(ownAdmin.auth.me());
    assert.ok(refused instanceof AuthenticationError && refused.code === 'invalid_token', String(refused));
    const login = await refusal(signIn(own, 'acme', email('acme', 'admin'), password('acme', 'admin')));
    assert.ok(login instanceof AuthenticationError && login.code === 'invalid_credentials', String(login));
    const globex = await signIn(own, 'globex', email('globex', 'admin'), password('globex', 'admin'));
    assert.equal((await globex.auth.me()).customer.customer_id, 'globex');
  } finally {
    await own.close();
  }
});
