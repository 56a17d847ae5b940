// The fetch adapter, as jose's createRemoteJWKSet uses it for an OIDC key set.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createRemoteJWKSet, customFetch, exportJWK, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { createOutboundClient } from '../../src/outbound/outbound-client.js';
import { outboundFetch } from '../../src/outbound/outbound-fetch.js';
import { OutboundRefusal } from '../../src/outbound/outbound-refusal.js';
import { type LoopbackServer, startLoopbackServer } from './loopback-server.js';

describe('outboundFetch', () => {
  let jwksServer: LoopbackServer;
  let token: string;

  before(async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
    jwksServer = await startLoopbackServer((request, response) => {
      if (request.url === '/jwks') {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ keys: [jwk] }));
      } else if (request.url === '/moved') {
        response.writeHead(302, { location: '/jwks' }).end();
      } else {
        response.writeHead(404).end();
      }
    });
    token = await new SignJWT({ sub: 'u1' })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
  });
  after(() => jwksServer.close());

  it('serves jose a key set from an allowed host', async () => {
    const fetchImpl = outboundFetch(createOutboundClient({ allow: ['127.0.0.1'] }));
    const keySet = createRemoteJWKSet(new URL(`${jwksServer.origin}/jwks`), { [customFetch]: fetchImpl });
    const { payload } = await jwtVerify(token, keySet);
    assert.equal(payload.sub, 'u1');
  });

  it('refuses a key set on a refused address before connecting', async () => {
    const before = jwksServer.connections;
    const fetchImpl = outboundFetch(createOutboundClient());
    const keySet = createRemoteJWKSet(new URL(`${jwksServer.origin}/jwks`), { [customFetch]: fetchImpl });
    await assert.rejects(
      jwtVerify(token, keySet),
      (error: unknown) => error instanceof OutboundRefusal && error.reason === 'address_not_allowed',
    );
    assert.equal(jwksServer.connections, before);
  });

  it('returns error statuses and manual redirects as fetch does', async () => {
    const fetchImpl = outboundFetch(createOutboundClient({ allow: ['127.0.0.1'] }));
    assert.equal((await fetchImpl(`${jwksServer.origin}/missing`)).status, 404);
    const manual = await fetchImpl(`${jwksServer.origin}/moved`, { redirect: 'manual' });
    assert.equal(manual.status, 302);
    const followed = await fetchImpl(`${jwksServer.origin}/moved`);
    assert.equal(followed.status, 200);
    assert.equal(((await followed.json()) as { keys: unknown[] }).keys.length, 1);
    await assert.rejects(
      fetchImpl(`${jwksServer.origin}/moved`, { redirect: 'error' }),
      (error: unknown) => (error as OutboundRefusal).reason === 'too_many_redirects',
    );
  });
});
