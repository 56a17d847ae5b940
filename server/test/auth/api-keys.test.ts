import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { roles } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/harness.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

describe('API keys in the body', () => {
  for (const role of roles) {
    test(`a ${role} key authenticates with its role`, async () => {
      const reply = await server.call('/auth/me', server.apiKeyBody('acme', role));
      assert.equal(reply.status, 200, reply.text);
      assert.equal(reply.body.authentication, 'api_key');
      assert.equal(reply.body.role, role);
      assert.equal(reply.body.principal.type, 'api_key');
      assert.match(reply.body.principal.id, /^key_[A-Za-z0-9]{8}$/);
      assert.equal(reply.body.expires_at, null);
      assert.ok(!reply.text.includes(server.fixture.apiKeys.acme![role]), 'the key is never echoed');
    });
  }

  test("a wrong secret, another tenant's key and a malformed key are refused alike", async () => {
    const good = server.fixture.apiKeys.acme!.user;
    const attempts = [
      { customer_id: 'acme', api_key: good.slice(0, -1) + (good.endsWith('A') ? 'B' : 'A') },
      { customer_id: 'acme', api_key: server.fixture.apiKeys.globex!.user },
      { customer_id: 'globex', api_key: good },
      { customer_id: 'nosuchtenant', api_key: good },
    ];
    for (const body of attempts) {
      const reply = await server.call('/auth/me', body);
      assert.equal(reply.status, 401, JSON.stringify(body));
      assert.equal(reply.body.code, 'invalid_api_key');
    }
    const malformed = await server.call('/auth/me', { customer_id: 'acme', api_key: 'sk_live_123' });
    assert.equal(malformed.status, 401);
    assert.equal(malformed.body.code, 'invalid_api_key');
  });

  test('a key needs its customer_id, and the two kinds of credentials do not mix', async () => {
    const alone = await server.call('/auth/me', { api_key: server.fixture.apiKeys.acme!.user });
    assert.equal(alone.status, 400);
    assert.deepEqual(
      alone.body.errors.map((e: { pointer: string }) => e.pointer),
      ['/customer_id'],
    );
    const both = await server.call('/auth/me', server.apiKeyBody('acme', 'user'), { token: await server.login('acme', 'user') });
    assert.equal(both.status, 400);
    assert.equal(both.body.code, 'invalid_request');
  });

  test('operations reserved for users refuse keys, even an admin key', async () => {
    for (const path of ['/api/v1/saas/users', '/api/v1/account/export']) {
      const reply = await server.call(path, server.apiKeyBody('acme', 'admin'));
      assert.equal(reply.status, 403, path);
      assert.equal(reply.body.code, 'api_key_not_allowed');
    }
  });
});

describe('tenant isolation of credentials', () => {
  test('a local token cannot be moved to another tenant by editing its claims', async () => {
    const token = await server.login('acme', 'admin');
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = [header, Buffer.from(JSON.stringify({ ...claims, cid: 'globex' })).toString('base64url'), signature].join('.');
    const reply = await server.call('/auth/me', undefined, { token: forged });
    assert.equal(reply.status, 401);
    assert.equal(reply.body.code, 'invalid_token');
  });

  test('each tenant sees only itself', async () => {
    const acme = await server.call('/auth/me', undefined, { token: await server.login('acme', 'viewer') });
    const globex = await server.call('/auth/me', undefined, { token: await server.login('globex', 'viewer') });
    assert.equal(acme.body.customer.customer_id, 'acme');
    assert.equal(globex.body.customer.customer_id, 'globex');
    assert.notEqual(acme.body.principal.id, globex.body.principal.id);
  });
});
