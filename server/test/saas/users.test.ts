// User management through HTTP (section 4.7, decision row 35): create, sign in, update, list,
// disable, delete; unique emails, the last active admin, password rules; access revoked at the next
// call; bearer tokens of admins only; compliance log lines without secrets.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import { UserStore } from '../../src/cosmos/user-store.js';
import { verifyPassword } from '../../src/services/auth/passwords.js';
import { email, password } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/harness.js';

let server: TestServer;
let admin: string;
const logLines: string[] = [];
const passwords = ['violet-harbour-lantern-42', 'quiet-meadow-ferry-1987', 'amber-tunnel-orchid-bay'];

before(async () => {
  // The server's log, unredacted: what the code itself writes must hold no secret.
  const log = pino(
    { level: 'info' },
    new Writable({
      write: (chunk, _encoding, done) => {
        logLines.push(String(chunk));
        done();
      },
    }),
  );
  server = await startTestServer({ log });
  admin = await server.login('acme', 'admin');
});
after(() => server.close());

const save = (body: object, token = admin) => server.call('/api/v1/saas/users/save', body, { token });
const remove = (userId: string, token = admin) => server.call('/api/v1/saas/users/delete', { user_id: userId }, { token });
const list = (body: object = {}, token = admin) => server.call('/api/v1/saas/users', body, { token });
const me = (token: string) => server.call('/auth/me', undefined, { token });
const login = (address: string, password: string, customerId = 'acme') =>
  server.call('/auth/login', { email: address, password, customer_id: customerId });
const stored = (customerId: string, userId: string) => new UserStore(server.cosmos.container('users')).get(customerId, userId);

async function createUser(body: Record<string, unknown>, token = admin) {
  const reply = await save(body, token);
  assert.equal(reply.status, 200, reply.text);
  return reply.body as { user_id: string; email: string };
}

describe('lifecycle', () => {
  test('create with a password, sign in as the user, change the role (ends the session), rename', async () => {
    const created = await save({
      email: 'Uma.User@acme.test',
      name: 'Uma User',
      role: 'user',
      data_access_roles: ['hr'],
      password: passwords[0],
    });
    assert.equal(created.status, 200, created.text);
    const user = created.body;
    assert.match(user.user_id, /^usr_/);
    assert.deepEqual(
      { ...user, user_id: undefined, created_at: undefined, updated_at: undefined },
      {
        user_id: undefined,
        email: 'uma.user@acme.test',
        name: 'Uma User',
        role: 'user',
        data_access_roles: ['hr'],
        status: 'active',
        created_at: undefined,
        updated_at: undefined,
        last_login_at: null,
      },
    );
    assert.doesNotMatch(created.text, /password|scrypt/);
    // Hashed with the server's scheme, never kept in clear.
    const record = await stored('acme', user.user_id);
    assert.match(record!.password_hash!, /^scrypt\$16384\$8\$1\$/);
    assert.equal(await verifyPassword(passwords[0]!, record!.password_hash!), true);

    const signedIn = await login('uma.user@acme.test', passwords[0]!);
    assert.equal(signedIn.status, 200, signedIn.text);
    const token = signedIn.body.token;
    assert.deepEqual([(await me(token)).body.role, (await me(token)).body.data_access_roles], ['user', ['hr']]);

    const changed = await save({ user_id: user.user_id, role: 'viewer', name: 'Uma Viewer', data_access_roles: [] });
    assert.equal(changed.status, 200, changed.text);
    assert.deepEqual([changed.body.role, changed.body.name, changed.body.email], ['viewer', 'Uma Viewer', 'uma.user@acme.test']);
    assert.notEqual(changed.body.last_login_at, null);
    // The role change ends the session the old role signed in with; a new sign-in carries the new role.
    assert.equal((await me(token)).status, 401);
    const again = (await login('uma.user@acme.test', passwords[0]!)).body.token;
    assert.deepEqual([(await me(again)).body.role, (await me(again)).body.data_access_roles], ['viewer', []]);
    // A rename keeps the session.
    assert.equal((await save({ user_id: user.user_id, name: 'Uma V.' })).status, 200);
    assert.equal((await me(again)).status, 200);
    // A password change: the old password and the session signed in with it stop working, the new one works.
    assert.equal((await save({ user_id: user.user_id, password: passwords[1] })).status, 200);
    assert.equal((await me(again)).status, 401);
    assert.equal((await login('uma.user@acme.test', passwords[0]!)).status, 401);
    assert.equal((await login('uma.user@acme.test', passwords[1]!)).status, 200);
  });

  test('lists by email, a page at a time, and by role', async () => {
    for (const name of ['zoe', 'bob', 'mia']) await createUser({ email: `${name}.list@acme.test`, role: 'viewer' });
    const emails: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 20; pages += 1) {
      const page = await list({ limit: 2, ...(cursor ? { cursor } : {}) });
      assert.equal(page.status, 200, page.text);
      assert.ok(page.body.data.length <= 2);
      emails.push(...page.body.data.map((u: { email: string }) => u.email));
      assert.ok(page.body.data.every((u: object) => !('password_hash' in u)));
      if (!page.body.has_more) break;
      cursor = page.body.next_cursor;
    }
    assert.deepEqual(emails, [...emails].sort());
    for (const expected of ['admin@acme.test', 'bob.list@acme.test', 'mia.list@acme.test', 'zoe.list@acme.test']) {
      assert.ok(emails.includes(expected), expected);
    }
    assert.equal(new Set(emails).size, emails.length);
    const admins = await list({ role: 'admin' });
    assert.deepEqual(
      admins.body.data.map((u: { email: string }) => u.email),
      [email('acme', 'admin')],
    );
    assert.deepEqual(
      [(await list({ cursor: 'bm90LWEtY3Vyc29y' })).status, (await list({ cursor: 'bm90LWEtY3Vyc29y' })).body.code],
      [400, 'invalid_request'],
    );
  });

  test('disabling refuses the token at the next call and the password at login; enabling restores the password, not the old session', async () => {
    const user = await createUser({ email: 'dana.disabled@acme.test', role: 'user', password: passwords[2] });
    const token = (await login(user.email, passwords[2]!)).body.token;
    assert.equal((await me(token)).status, 200);

    assert.equal((await save({ user_id: user.user_id, status: 'disabled' })).body.status, 'disabled');
    const refused = await me(token);
    assert.deepEqual([refused.status, refused.body.code], [401, 'invalid_token']);
    assert.deepEqual(
      [(await login(user.email, passwords[2]!)).status, (await login(user.email, passwords[2]!)).body.code],
      [401, 'invalid_credentials'],
    );

    assert.equal((await save({ user_id: user.user_id, status: 'active' })).body.status, 'active');
    assert.equal((await me(token)).status, 401);
    const again = await login(user.email, passwords[2]!);
    assert.equal((await me(again.body.token)).status, 200);
  });

  test('deleting refuses the token at the next call; the user is gone from the list and from the store', async () => {
    const user = await createUser({ email: 'dev.deleted@acme.test', role: 'user', password: passwords[2] });
    const token = (await login(user.email, passwords[2]!)).body.token;
    assert.equal((await me(token)).status, 200);

    const deleted = await remove(user.user_id);
    assert.deepEqual([deleted.status, deleted.body], [200, { user_id: user.user_id, deleted: true }]);
    assert.deepEqual([(await me(token)).status, (await me(token)).body.code], [401, 'invalid_token']);
    assert.equal((await login(user.email, passwords[2]!)).status, 401);
    assert.equal(await stored('acme', user.user_id), null);
    assert.ok(!(await list({ limit: 100 })).body.data.some((u: { user_id: string }) => u.user_id === user.user_id));
    assert.deepEqual([(await remove(user.user_id)).status, (await remove(user.user_id)).body.code], [404, 'not_found']);
    // Its email is free again.
    await createUser({ email: user.email, role: 'viewer' });
  });

  test("a deleted user's id stays on the validations and audit events they made", async () => {
    const user = await createUser({ email: 'val.idator@acme.test', role: 'user', password: passwords[0] });
    const token = (await login(user.email, passwords[0]!)).body.token;
    const validated = await server.call(
      '/api/v1/validate',
      { mode: 'validate', question: 'How many days?', chatbot_response: 'Staff get 25 days.', inline_text: 'Staff get 25 days of leave.' },
      { token },
    );
    assert.equal(validated.status, 200, validated.text);
    assert.equal((await remove(user.user_id)).status, 200);

    const history = await server.call('/api/v1/history', { limit: 100 }, { token: admin });
    const record = history.body.data.find((r: { validation_id: string }) => r.validation_id === validated.body.validation_id);
    assert.equal(record?.user.id, user.user_id);
    const events = await server.call('/api/v1/audit', { validation_id: validated.body.validation_id }, { token: admin });
    assert.equal(events.status, 200, events.text);
    assert.equal(events.body.data[0]?.kind, 'validation_created');
    assert.equal(events.body.data[0]?.actor.id, user.user_id);
  });
});

describe('rules', () => {
  test('emails are unique per tenant, whatever their case, on creation and on change', async () => {
    const first = await createUser({ email: 'unique.one@acme.test', role: 'viewer' });
    const second = await createUser({ email: 'unique.two@acme.test', role: 'viewer' });
    const taken = await save({ email: 'UNIQUE.one@acme.test', role: 'user' });
    assert.deepEqual([taken.status, taken.body.code], [409, 'email_taken']);
    const moved = await save({ user_id: second.user_id, email: 'unique.one@acme.test' });
    assert.deepEqual([moved.status, moved.body.code], [409, 'email_taken']);
    assert.equal((await stored('acme', second.user_id))!.email, 'unique.two@acme.test');
    assert.equal((await stored('acme', first.user_id))!.email, 'unique.one@acme.test');
    // Another tenant may use the same email.
    await createUser({ email: 'unique.one@acme.test', role: 'viewer' }, await server.login('globex', 'admin'));
    // A user may take an email another user gave up.
    assert.equal((await save({ user_id: first.user_id, email: 'unique.three@acme.test' })).status, 200);
    assert.equal((await save({ user_id: second.user_id, email: 'unique.one@acme.test' })).status, 200);
  });

  test('the last active admin cannot be demoted, disabled or deleted; of two admins demoted at once, one stays', async () => {
    // globex: its own admin, so acme's stays untouched for the other tests.
    const globexAdmin = await server.login('globex', 'admin');
    const self = (await server.call('/auth/me', undefined, { token: globexAdmin })).body.principal.id as string;
    for (const change of [{ role: 'user' }, { status: 'disabled' }]) {
      const reply = await save({ user_id: self, ...change }, globexAdmin);
      assert.deepEqual([reply.status, reply.body.code], [409, 'last_admin'], JSON.stringify(change));
    }
    assert.deepEqual([(await remove(self, globexAdmin)).status, (await remove(self, globexAdmin)).body.code], [409, 'last_admin']);

    // A disabled admin does not count: it cannot hold the tenant open.
    const spare = await createUser({ email: 'spare.admin@globex.test', role: 'admin', status: 'disabled' }, globexAdmin);
    assert.equal((await save({ user_id: self, role: 'user' }, globexAdmin)).body.code, 'last_admin');

    const second = await createUser({ email: 'second.admin@globex.test', role: 'admin', password: passwords[1] }, globexAdmin);
    const secondToken = (await login(second.email, passwords[1]!, 'globex')).body.token;
    const [a, b] = await Promise.all([
      save({ user_id: self, role: 'user' }, globexAdmin),
      save({ user_id: second.user_id, role: 'viewer' }, secondToken),
    ]);
    assert.deepEqual([a.status, b.status].sort(), [200, 409], `${a.text} ${b.text}`);
    assert.equal([a, b].find((r) => r.status === 409)!.body.code, 'last_admin');
    const admins = await new UserStore(server.cosmos.container('users')).countActiveAdmins('globex');
    assert.equal(admins, 1);
    assert.equal((await stored('globex', spare.user_id))!.status, 'disabled');
  });

  test('passwords: 12 characters or more, not a common one, not the email; never echoed', async () => {
    const refusals: [string, RegExp][] = [
      ['short-pass', /must have at least 12 characters/],
      ['qwertyuiop123', /commonly used/],
      ['Dragon2024!!!!', /commonly used password with digits or symbols/],
      ['pat.example-secret', /email/],
    ];
    for (const [password, detail] of refusals) {
      const reply = await save({ email: 'pat.example@acme.test', role: 'user', password });
      assert.equal(reply.status, 400, password);
      assert.equal(reply.body.errors[0].pointer, '/password');
      assert.match(reply.body.errors[0].detail, detail);
      assert.ok(!reply.text.includes(password), 'the password is not echoed');
    }
    assert.equal((await list({ limit: 100 })).body.data.filter((u: { email: string }) => u.email === 'pat.example@acme.test').length, 0);
  });

  test("another tenant's user answers 404", async () => {
    const user = await createUser({ email: 'private.user@acme.test', role: 'viewer' });
    // tiny's admin (globex's may have been demoted above; tiny allows 3 calls in 2 s).
    const otherAdmin = await server.login('tiny', 'admin');
    for (const reply of [await save({ user_id: user.user_id, role: 'admin' }, otherAdmin), await remove(user.user_id, otherAdmin)]) {
      assert.deepEqual([reply.status, reply.body.code], [404, 'not_found']);
    }
    assert.equal((await stored('acme', user.user_id))!.role, 'viewer');
  });
});

describe('who may call', () => {
  const routes = [
    ['/api/v1/saas/users', {}],
    ['/api/v1/saas/users/save', { email: 'key.user@acme.test', role: 'viewer' }],
    ['/api/v1/saas/users/delete', { user_id: 'usr_01JD3XD5E6F7G8H9J0K1M2N3P4' }],
    ['/api/v1/saas/billing-portal', {}],
    ['/api/v1/account/export', {}],
    ['/api/v1/account/delete', { confirmation: 'DELETE acme' }],
  ] as const;

  test("an admin's API key is refused on every saas and account route, and nothing is written", async () => {
    for (const [path, body] of routes) {
      const reply = await server.call(path, { ...body, ...server.apiKeyBody('acme', 'admin') });
      assert.deepEqual([reply.status, reply.body.code], [403, 'api_key_not_allowed'], path);
    }
    assert.equal((await login(email('acme', 'admin'), password('acme', 'admin'))).status, 200, 'acme is not deleted');
  });

  test('users and viewers are refused', async () => {
    for (const role of ['user', 'viewer'] as const) {
      const token = await server.login('acme', role);
      for (const [path, body] of routes) {
        const reply = await server.call(path, body, { token });
        assert.deepEqual([reply.status, reply.body.code], [403, 'insufficient_role'], `${role} ${path}`);
      }
    }
  });
});

test('user changes are logged for the operator, with ids and roles but no password, hash or email', async () => {
  const user = await createUser({ email: 'logged.user@acme.test', role: 'user', password: passwords[1] });
  await save({ user_id: user.user_id, role: 'admin' });
  await save({ user_id: user.user_id, status: 'disabled' });
  await remove(user.user_id);
  const actorId = (await me(admin)).body.principal.id;
  const events = logLines
    .map((line) => JSON.parse(line))
    .filter((entry) => entry.user_id === user.user_id && entry.compliance_event)
    .map((entry) => [entry.compliance_event, entry.customer_id, entry.actor.id, entry.from, entry.to]);
  assert.deepEqual(events, [
    ['user_created', 'acme', actorId, undefined, undefined],
    ['user_password_set', 'acme', actorId, undefined, undefined],
    ['user_role_changed', 'acme', actorId, 'user', 'admin'],
    ['user_disabled', 'acme', actorId, undefined, undefined],
    ['user_deleted', 'acme', actorId, undefined, undefined],
  ]);
  const everything = logLines.join('');
  for (const secret of [...passwords, 'scrypt$', 'logged.user@acme.test']) assert.ok(!everything.includes(secret), secret);
});
