import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { oidcAudience, oidcIssuer } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/harness.js';

let jwksServer: Server;
let jwksRequests = 0;
let signingKey: CryptoKey;
let otherKey: CryptoKey;
let server: TestServer;

before(async () => {
  const pair = await generateKeyPair('ES256');
  signingKey = pair.privateKey;
  otherKey = (await generateKeyPair('ES256')).privateKey;
  const jwk: JWK = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  jwksServer = createServer((_req, res) => {
    jwksRequests += 1;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
  server = await startTestServer({ jwksUri: `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/keys` });
});
after(async () => {
  await server.close();
  jwksServer.close();
});

interface TokenOptions {
  key?: CryptoKey;
  issuer?: string;
  audience?: string;
  expiresIn?: number;
  claims?: Record<string, unknown>;
}

function token({ key = signingKey, issuer = oidcIssuer, audience = oidcAudience, expiresIn = 300, claims = {} }: TokenOptions = {}) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ roles: ['GC.Reviewer'], groups: ['hr', 'emea'], name: 'Ines Initech', ...claims })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setIssuer(issuer)
    .setAudience(audience)
    .setSubject('00u1a2b3c4')
    .setIssuedAt(now - 10)
    .setExpirationTime(now + expiresIn)
    .sign(key);
}

const unsigned = (payload: Record<string, unknown>) =>
  `${[Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })), Buffer.from(JSON.stringify(payload))]
    .map((b) => b.toString('base64url'))
    .join('.')}.`;

describe('OIDC bearer tokens', () => {
  test('a valid token maps the customer role and carries data-access roles', async () => {
    const reply = await server.call('/auth/me', undefined, { token: await token() });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body.authentication, 'oidc');
    assert.equal(reply.body.role, 'user');
    assert.deepEqual(reply.body.data_access_roles, ['hr', 'emea']);
    assert.deepEqual(reply.body.principal, { type: 'user', id: 'sub:00u1a2b3c4', name: 'Ines Initech' });
    assert.equal(reply.body.customer.customer_id, 'initech');
  });

  test('the highest mapped role wins and unmapped roles are ignored', async () => {
    const reply = await server.call('/auth/me', undefined, {
      token: await token({ claims: { roles: ['Unrelated', 'GC.Reader', 'GC.Admin'] } }),
    });
    assert.equal(reply.body.role, 'admin');
  });

  test('a token without a mapped role is refused', async () => {
    const reply = await server.call('/auth/me', undefined, { token: await token({ claims: { roles: ['Unrelated'] } }) });
    assert.equal(reply.status, 403);
    assert.equal(reply.body.code, 'insufficient_role');
  });

  test('the key set is fetched once and cached', async () => {
    assert.equal((await server.call('/auth/me', undefined, { token: await token() })).status, 200);
    const fetched = jwksRequests;
    assert.ok(fetched >= 1);
    for (let i = 0; i < 3; i += 1) assert.equal((await server.call('/auth/me', undefined, { token: await token() })).status, 200);
    assert.equal(jwksRequests, fetched, 'no further key set requests');
  });

  const rejected: [string, () => Promise<string> | string, string][] = [
    [
      'alg none',
      () => unsigned({ iss: oidcIssuer, aud: oidcAudience, sub: 'x', exp: Math.floor(Date.now() / 1000) + 300, roles: ['GC.Admin'] }),
      'invalid_token',
    ],
    ['expired', () => token({ expiresIn: -60 }), 'token_expired'],
    ['wrong issuer', () => token({ issuer: 'https://evil.test' }), 'invalid_token'],
    ['wrong audience', () => token({ audience: 'api://someone-else' }), 'invalid_token'],
    ['signed by another key', () => token({ key: otherKey }), 'invalid_token'],
    ['not a JWT', () => 'not-a-jwt', 'invalid_token'],
  ];
  for (const [name, make, code] of rejected) {
    test(`rejects a token: ${name}`, async () => {
      const reply = await server.call('/auth/me', undefined, { token: await make() });
      assert.equal(reply.status, 401, reply.text);
      assert.equal(reply.body.code, code);
      assert.equal(reply.headers.get('www-authenticate'), 'Bearer');
    });
  }

  test('a token signed with the HMAC of the public configuration is refused', async () => {
    const forged = await new SignJWT({ roles: ['GC.Admin'] })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(oidcIssuer)
      .setAudience(oidcAudience)
      .setSubject('x')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(`${oidcIssuer + oidcAudience}k1`));
    const reply = await server.call('/auth/me', undefined, { token: forged });
    assert.equal(reply.status, 401);
    assert.equal(reply.body.code, 'invalid_token');
  });
});

describe('OIDC claims taken only as what they claim to be (probe regressions)', () => {
  for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
    test(`a role named "${name}" maps to nothing and reaches no admin route`, async () => {
      const signed = await token({ claims: { roles: [name] } });
      const me = await server.call('/auth/me', undefined, { token: signed });
      assert.equal(me.status, 403, me.text);
      assert.equal(me.body.code, 'insufficient_role');
      for (const path of ['/api/v1/audit', '/api/v1/audit/export', '/api/v1/system-card']) {
        const reply = await server.call(path, undefined, { token: signed });
        assert.equal(reply.status, 403, `${path}: ${reply.text}`);
      }
    });
  }

  test('a prototype name as the role claim beside a real role keeps the real one only', async () => {
    const reply = await server.call('/auth/me', undefined, { token: await token({ claims: { roles: ['__proto__', 'GC.Reader'] } }) });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body.role, 'viewer');
  });

  const malformed: [string, Record<string, unknown>][] = [
    ['a numeric aud', { aud: 42 }],
    ['an object aud', { aud: { toString: 1 } }],
    ['an aud list with a number', { aud: [oidcAudience, 7] }],
    ['a numeric iss', { iss: 12 }],
    ['a numeric sub', { sub: 12 }],
  ];
  for (const [name, claims] of malformed) {
    test(`an unsigned token with ${name} answers 401 invalid_token, not 500`, async () => {
      const payload = {
        iss: oidcIssuer,
        aud: oidcAudience,
        sub: 'x',
        exp: Math.floor(Date.now() / 1000) + 300,
        roles: ['GC.Admin'],
        ...claims,
      };
      const forged = unsigned(payload).replace(/\.$/, '.c2lnbmF0dXJl');
      const reply = await server.call('/auth/me', undefined, { token: forged });
      assert.equal(reply.status, 401, reply.text);
      assert.equal(reply.body.code, 'invalid_token');
    });
  }

  test('a signed token whose sub is not a string is refused', async () => {
    const now = Math.floor(Date.now() / 1000);
    const signed = await new SignJWT({ roles: ['GC.Admin'], sub: 42 } as never)
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer(oidcIssuer)
      .setAudience(oidcAudience)
      .setIssuedAt(now)
      .setExpirationTime(now + 300)
      .sign(signingKey);
    const reply = await server.call('/auth/me', undefined, { token: signed });
    assert.equal(reply.status, 401, reply.text);
  });
});

describe('the key set is fetched through the outbound guard', () => {
  test('a JWKS address the tenant does not allow is never contacted, and its tokens are refused', async () => {
    const { writeFixture } = await import('../support/fixtures.js');
    const port = (jwksServer.address() as AddressInfo).port;
    const guarded = await startTestServer({
      fixture: await writeFixture({ jwksUri: `http://127.0.0.1:${port}/keys`, overrides: { initech: { outbound: { allow: [] } } } }),
    });
    try {
      const before = jwksRequests;
      const reply = await guarded.call('/auth/me', undefined, { token: await token() });
      assert.equal(reply.status, 401, reply.text);
      assert.equal(reply.body.code, 'invalid_token');
      assert.equal(jwksRequests, before, 'the loopback key server received nothing');
    } finally {
      await guarded.close();
    }
  });
});
