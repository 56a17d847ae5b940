// The SDK against the real reference server on loopback: sign-in and identity work end to end; every
// other method reaches the server with a request it accepts (credentials, role, feature and the
// contract's validation all pass) and gets the server's answer for an operation not yet served.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { email, password } from '../../server/test/support/fixtures.js';
import type { TestServer } from '../../server/test/support/harness.js';
import {
  AuthenticationError,
  BadRequestError,
  createClient,
  type GroundcheckClient,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ServerError,
} from '../src/index.js';
import { startReferenceServer } from './support/reference-server.js';

let server: TestServer;
let admin: GroundcheckClient;
let adminByKey: GroundcheckClient;

before(async () => {
  ({ server, admin } = await startReferenceServer());
  const key = server.apiKeyBody('acme', 'admin');
  adminByKey = createClient({ baseUrl: server.url, customerId: key.customer_id, apiKey: key.api_key });
});
after(() => server.close());

describe('auth', () => {
  test('login, then me with the token', async () => {
    const client = createClient({ baseUrl: server.url });
    const login = await client.auth.login({ email: email('acme', 'user'), password: password('acme', 'user'), customer_id: 'acme' });
    assert.equal(login.token_type, 'Bearer');
    assert.equal(login.expires_in, 3600);
    assert.match(login.lastResponse.requestId!, /^req_/);
    const me = await createClient({ baseUrl: server.url, token: login.token }).auth.me();
    assert.equal(me.principal.type, 'user');
    assert.equal(me.role, 'user');
    assert.equal(me.customer.customer_id, 'acme');
    assert.equal(me.authentication, 'local');
    assert.match(me.lastResponse.requestId!, /^req_/);
    const { rateLimit } = me.lastResponse;
    assert.ok(rateLimit && rateLimit.limit > 0 && rateLimit.remaining >= 0 && rateLimit.reset >= 0, JSON.stringify(rateLimit));
  });

  test('me with an API key sent in the body', async () => {
    const me = await adminByKey.auth.me();
    assert.equal(me.principal.type, 'api_key');
    assert.match(me.principal.id, /^key_/);
    assert.equal(me.authentication, 'api_key');
    assert.equal(me.expires_at, null);
  });

  test('a token function is asked for the token', async () => {
    const token = await server.login('acme', 'viewer');
    const me = await createClient({ baseUrl: server.url, token: async () => token }).auth.me();
    assert.equal(me.role, 'viewer');
  });

  test('a wrong password: AuthenticationError invalid_credentials with the request id', async () => {
    const error = await createClient({ baseUrl: server.url })
      .auth.login({ email: email('acme', 'user'), password: 'wrong-password', customer_id: 'acme' })
      .catch((e: unknown) => e);
    assert.ok(error instanceof AuthenticationError);
    assert.equal(error.status, 401);
    assert.equal(error.code, 'invalid_credentials');
    assert.match(error.requestId!, /^req_/);
    assert.equal(error.requestId, error.headers?.get('x-request-id'));
  });

  test("no credentials, a bad token, a bad key: AuthenticationError with the server's code", async () => {
    const codes = await Promise.all(
      [
        createClient({ baseUrl: server.url }),
        createClient({ baseUrl: server.url, token: 'not-a-jwt' }),
        createClient({ baseUrl: server.url, customerId: 'acme', apiKey: 'gck_Ab12Cd34_0123456789abcdefghijklmnopqrstuv' }),
      ].map((client) =>
        client.auth.me().then(
          () => null,
          (e: unknown) => (e instanceof AuthenticationError ? e.code : String(e)),
        ),
      ),
    );
    assert.deepEqual(codes, ['unauthenticated', 'invalid_token', 'invalid_api_key']);
  });
});

describe('errors from the server', () => {
  test('a role too low: PermissionError insufficient_role', async () => {
    const viewer = createClient({ baseUrl: server.url, token: await server.login('acme', 'viewer') });
    const error = await viewer.validate({ mode: 'generate', question: 'Q?', inline_text: 'S.' }).catch((e: unknown) => e);
    assert.ok(error instanceof PermissionError);
    assert.equal(error.code, 'insufficient_role');
  });

  test('a tenant without the feature: PermissionError feature_disabled', async () => {
    const globex = createClient({ baseUrl: server.url, token: await server.login('globex', 'admin') });
    const error = await globex.templates.list().catch((e: unknown) => e);
    assert.ok(error instanceof PermissionError);
    assert.equal(error.code, 'feature_disabled');
  });

  test('an API key on saas/* and account/*: the SDK leaves it out, so the server sees no credentials', async () => {
    for (const call of [() => adminByKey.saas.users.list(), () => adminByKey.account.export(), () => adminByKey.saas.billingPortal()]) {
      const error = await call().catch((e: unknown) => e);
      assert.ok(error instanceof AuthenticationError, String(error));
      assert.equal(error.code, 'unauthenticated');
    }
  });

  test('an invalid id: BadRequestError with the field pointer', async () => {
    const error = await admin.templates.get('not-a-template-id').catch((e: unknown) => e);
    assert.ok(error instanceof BadRequestError);
    assert.equal(error.code, 'invalid_request');
    assert.ok(
      error.problem?.errors?.some((e) => e.pointer === 'path:id'),
      JSON.stringify(error.problem),
    );
  });

  test('a body over 1 MiB: BadRequestError 413 payload_too_large', async () => {
    const error = await admin
      .validate({ mode: 'generate', question: 'Q?', inline_text: 'x'.repeat(1024 * 1024 + 1) })
      .catch((e: unknown) => e);
    assert.ok(error instanceof BadRequestError);
    assert.equal(error.status, 413);
    assert.equal(error.code, 'payload_too_large');
  });

  test("the tenant's rate limit: RateLimitError with Retry-After, or a wait and a retry", async () => {
    // Tenant "tiny" allows 3 requests per 2 seconds. Eight at once: sent one after another, a loaded machine
    // can spread them over more than one window, and however two windows split eight, one holds more than 3.
    const token = await server.login('tiny', 'viewer');
    const noRetries = createClient({ baseUrl: server.url, token, maxRetries: 0 });
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () =>
        noRetries.auth.me().then(
          () => null,
          (e: unknown) => e,
        ),
      ),
    );
    const limited = outcomes.find((o) => o !== null);
    assert.ok(limited instanceof RateLimitError, String(limited));
    assert.equal(limited.code, 'rate_limited');
    assert.ok(limited.retryAfterInMs! > 0 && limited.retryAfterInMs! <= 2000, String(limited.retryAfterInMs));
    assert.equal(limited.headers?.get('ratelimit-remaining'), '0');
    // With retries, the client waits out Retry-After and gets through.
    const me = await createClient({ baseUrl: server.url, token }).auth.me();
    assert.equal(me.role, 'viewer');
  });
});

const templateId = 'tpl_01JD3XC4D5E6F7G8H9J0K1M2N3';
const validationId = 'val_01JD3X8Q5Z7M2N4P6R8T0V2W4Y';
const groupId = 'grp_01JD3XA1B2C3D4E5F6G7H8J9K0';
const fileId = 'fil_01JD3XB7C8D9E0F1G2H3J4K5M6';

/** Every method but login and me, with a contract-valid request. */
const calls: [string, (client: GroundcheckClient) => Promise<unknown>][] = [
  ['validate', (c) => c.validate({ mode: 'validate', question: 'How many days?', chatbot_response: '30 days.', inline_text: '25 days.' })],
  ['templates.list', (c) => c.templates.list()],
  ['templates.get', (c) => c.templates.get(templateId)],
  [
    'templates.getUploadUrl',
    (c) => c.templates.getUploadUrl({ name: 'Leave', file_name: 'leave.md', content_type: 'text/markdown', size_bytes: 100 }),
  ],
  ['templates.scan', (c) => c.templates.scan(templateId)],
  ['templates.save', (c) => c.templates.save(templateId, { active: false })],
  ['templates.delete', (c) => c.templates.delete(templateId)],
  ['sources.list', (c) => c.sources.list()],
  [
    'sources.getUploadUrl',
    (c) => c.sources.getUploadUrl({ group_id: groupId, file_name: 'h.pdf', content_type: 'application/pdf', size_bytes: 10 }),
  ],
  ['sources.uploadFile', (c) => c.sources.uploadFile(groupId, 'handbook.md', '# Handbook')],
  [
    'sources.saveGroup',
    (c) =>
      c.sources.saveGroup({
        // Group names are unique per tenant: each caller creates its own.
        name: `HR policies ${Math.random().toString(36).slice(2)}`,
        allowed_roles: ['hr'],
        endpoints: [{ name: 'hr-api', url: 'https://hr.acme.example/api' }],
      }),
  ],
  ['sources.deleteGroup', (c) => c.sources.deleteGroup({ group_id: groupId })],
  ['sources.deleteFile', (c) => c.sources.deleteFile({ group_id: groupId, file_id: fileId })],
  ['history.list', (c) => c.history.list({ mode: 'validate', limit: 10 })],
  [
    'history.iterate',
    async (c) => {
      for await (const _record of c.history.iterate({ limit: 10 })) break;
    },
  ],
  ['history.review', (c) => c.history.review(validationId, { action: 'approve', note: 'Checked.' })],
  ['stats', (c) => c.stats()],
  ['analytics.get', (c) => c.analytics.get({ date_from: '2026-11-01', date_to: '2026-11-20' })],
  ['analytics.csv', (c) => c.analytics.csv()],
  ['audit.list', (c) => c.audit.list({ kinds: ['approved'], limit: 10 })],
  [
    'audit.iterate',
    async (c) => {
      for await (const _event of c.audit.iterate({ limit: 10 })) break;
    },
  ],
  ['audit.export', (c) => c.audit.export({ days: 7 })],
  ['audit.export csv', (c) => c.audit.export({ format: 'csv', profile: 'raw' })],
  ['systemCard', (c) => c.systemCard()],
];

const bearerOnly: [string, (client: GroundcheckClient) => Promise<unknown>][] = [
  ['saas.users.list', (c) => c.saas.users.list({ role: 'admin' })],
  [
    'saas.users.iterate',
    async (c) => {
      for await (const _user of c.saas.users.iterate()) break;
    },
  ],
  ['saas.users.save', (c) => c.saas.users.save({ email: 'new.user@acme.test', role: 'user', name: 'New User' })],
  ['saas.users.delete', (c) => c.saas.users.delete({ user_id: 'usr_01JD3XD5E6F7G8H9J0K1M2N3P4' })],
  ['saas.billingPortal', (c) => c.saas.billingPortal({ return_url: 'https://app.acme.example/billing' })],
  ['account.export', (c) => c.account.export()],
  // A confirmation that deletes nothing: this file's tenant must outlive the call (sdk/test/saas.test.ts deletes one).
  ['account.delete', (c) => c.account.delete({ confirmation: 'DELETE not-this-tenant' })],
];

/** The operation's documented refusal of the example: no billing in this deployment, a confirmation that does not match. */
const exampleRefusals = new Set(['billing_not_configured', 'confirmation_mismatch']);

/**
 * Served (any success, or the operation's own 404 `not_found` for the example ids above, which
 * exist in no tenant), or refused only as "not implemented yet": anything else means the request
 * was wrong. A 404 cannot hide a wrong path: the SDK's paths are type-checked against the contract.
 */
async function acceptedByServer(call: () => Promise<unknown>): Promise<void> {
  const outcome = await call().then(
    () => 'served',
    (e: unknown) => e,
  );
  if (outcome === 'served') return;
  if (outcome instanceof NotFoundError && outcome.code === 'not_found') return;
  if ((outcome instanceof NotFoundError || outcome instanceof BadRequestError) && exampleRefusals.has(outcome.code ?? '')) return;
  assert.ok(outcome instanceof ServerError, `expected success or 501, got ${String(outcome)}`);
  assert.equal(outcome.status, 501);
  assert.equal(outcome.code, 'not_implemented');
  assert.match(outcome.requestId!, /^req_/);
}

describe('every method reaches the server with a request it accepts', () => {
  for (const [name, call] of calls) {
    test(`${name} (bearer token)`, () => acceptedByServer(() => call(admin)));
    test(`${name} (API key)`, () => acceptedByServer(() => call(adminByKey)));
  }
  for (const [name, call] of bearerOnly) {
    test(`${name} (bearer token)`, () => acceptedByServer(() => call(admin)));
  }
});
