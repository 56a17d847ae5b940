import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/lib/clock.js';
import { email, password } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/harness.js';

let server: TestServer;
// A still clock in the middle of a throttle window: the failures these tests count all fall in one
// window, however slowly a loaded machine runs them (the windows are aligned to the clock's minutes).
const midWindow = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 30_000);
before(async () => {
  server = await startTestServer({ clock: new ManualClock(midWindow), loginThrottle: { perAccount: 3, perAddress: 8, windowSeconds: 60 } });
});
after(() => server.close());

describe('POST /auth/login', () => {
  test('returns a bearer token that POST /auth/me accepts', async () => {
    const reply = await server.call('/auth/login', {
      email: email('acme', 'user'),
      password: password('acme', 'user'),
      customer_id: 'acme',
    });
    assert.equal(reply.status, 200);
    assert.equal(reply.body.token_type, 'Bearer');
    assert.equal(reply.body.expires_in, 3600);
    const expiresAt = Date.parse(reply.body.expires_at);
    assert.equal(expiresAt, midWindow.getTime() + 3600_000, "expires one hour after the server's now");

    const me = await server.call('/auth/me', undefined, { token: reply.body.token });
    assert.equal(me.status, 200);
    assert.equal(me.body.principal.type, 'user');
    assert.match(me.body.principal.id, /^usr_/);
    assert.equal(me.body.principal.email, 'user@acme.test');
    assert.equal(me.body.role, 'user');
    assert.deepEqual(me.body.data_access_roles, ['hr']);
    assert.equal(me.body.customer.customer_id, 'acme');
    assert.deepEqual(me.body.customer.features, { document_templates: true, audit_trail: true });
    assert.equal(me.body.authentication, 'local');
    assert.equal(me.body.expires_at, new Date(expiresAt).toISOString());
  });

  test('answers an unknown user, a wrong password and an unknown tenant alike', async () => {
    const attempts = [
      { email: 'nobody@acme.test', password: 'whatever-password', customer_id: 'acme' },
      { email: email('acme', 'admin'), password: 'wrong-password', customer_id: 'acme' },
      { email: email('acme', 'admin'), password: password('acme', 'admin'), customer_id: 'nosuchtenant' },
    ];
    const replies = await Promise.all(attempts.map((body) => server.call('/auth/login', body)));
    for (const reply of replies) {
      assert.equal(reply.status, 401);
      assert.equal(reply.headers.get('content-type'), 'application/problem+json; charset=utf-8');
      assert.equal(reply.body.code, 'invalid_credentials');
      assert.equal(reply.body.detail, 'The email, password or customer id is incorrect, or the account was closed.');
    }
  });

  test('is not offered to a tenant that signs in through its identity provider', async () => {
    const reply = await server.call('/auth/login', { email: 'someone@initech.test', password: 'pw', customer_id: 'initech' });
    assert.equal(reply.status, 404);
    assert.equal(reply.body.code, 'local_login_disabled');
  });

  test('locks an account out after repeated failures, even for the right password', async () => {
    const body = { email: email('globex', 'viewer'), password: 'wrong-password', customer_id: 'globex' };
    for (let i = 0; i < 3; i += 1) assert.equal((await server.call('/auth/login', body)).status, 401);
    const locked = await server.call('/auth/login', { ...body, password: password('globex', 'viewer') });
    assert.equal(locked.status, 429);
    assert.equal(locked.body.code, 'too_many_login_attempts');
    assert.ok(Number(locked.headers.get('retry-after')) > 0);
    // Another account from the same address still gets in.
    assert.equal(
      (await server.call('/auth/login', { email: email('globex', 'admin'), password: password('globex', 'admin'), customer_id: 'globex' }))
        .status,
      200,
    );
  });

  test('limits failures per client address across accounts', async () => {
    // The address allowance (8) is spent by the 6 failures above and these 2.
    for (const role of ['user', 'admin'] as const) {
      await server.call('/auth/login', { email: email('tiny', role), password: 'wrong-password', customer_id: 'tiny' });
    }
    const reply = await server.call('/auth/login', {
      email: email('tiny', 'user'),
      password: password('tiny', 'user'),
      customer_id: 'tiny',
    });
    assert.equal(reply.status, 429);
    assert.equal(reply.body.code, 'too_many_login_attempts');
  });
});
