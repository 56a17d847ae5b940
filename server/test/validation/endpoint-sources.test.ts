// API-backed source endpoints in POST /api/v1/validate, against a loopback endpoint that records what
// it receives: the X-Service-* headers exactly as `authz_forwarding` allows (the original JWT only for
// an OIDC caller, and never in logs or answers), the operator's credentials only for their URL, the
// passages grounding a claim, an endpoint of a forbidden group never called, the guard refusing an
// endpoint the tenant does not allow (which then receives nothing), and answers out of format skipped.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { inspect } from 'node:util';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { pino } from 'pino';
import { json, type Loopback, startLoopback } from '../../../sdk/test/support/loopback.js';
import { type Principal, SecretString } from '../../src/services/auth/principal.js';
import { forwardedHeaders } from '../../src/services/validation/endpoint-sources.js';
import { explained } from '../../src/services/validation/skip-reasons.js';
import { oidcAudience, oidcIssuer, writeFixture } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/harness.js';

const policy = 'Leave policy. Full-time employees are entitled to 25 days of paid leave per calendar year.';
const question = 'How many days of paid leave do full-time employees get?';
const downstreamSecret = 'downstream-secret-0123456789';

let endpoint: Loopback;
let server: TestServer;
let signingKey: CryptoKey;
const logLines: string[] = [];

before(async () => {
  const keys = await generateKeyPair('ES256');
  signingKey = keys.privateKey;
  const jwk = { ...(await exportJWK(keys.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  // What each path answers; the `e=` query marks which endpoint of a test sent the request.
  const answers: Record<string, (res: ServerResponse) => void> = {
    '/jwks': (res) => json(res, 200, { keys: [jwk] }),
    '/search': (res) => json(res, 200, { passages: [{ text: policy, reference: 'handbook.pdf#p3' }, { text: '  ' }] }),
    '/html': (res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<p>${policy}</p>`);
    },
    '/shape': (res) => json(res, 200, { results: [{ text: policy }] }),
    '/error': (res) => json(res, 500, { error: 'down' }),
    '/redirect': (res) => {
      res.writeHead(307, { location: '/search?e=redirected' });
      res.end();
    },
    '/huge': (res) => json(res, 200, { passages: [{ text: 'x'.repeat(1024 * 1024) }] }),
  };
  endpoint = await startLoopback((request, res) => {
    const answer = answers[new URL(request.path, 'http://x').pathname];
    if (answer) answer(res);
    else json(res, 404, {});
  });
  const fixture = await writeFixture({
    jwksUri: `${endpoint.url}/jwks`,
    overrides: {
      acme: {
        outbound: {
          allow: ['127.0.0.1'],
          endpoint_credentials: [{ url: `${endpoint.url}/search?e=all`, headers: { Authorization: `Bearer ${downstreamSecret}` } }],
        },
      },
      // globex allows nothing private: the guard refuses its loopback endpoints.
    },
  });
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  server = await startTestServer({ fixture, log: pino({ level: 'debug' }, sink) });
});
after(async () => {
  await server.close();
  await endpoint.close();
});

type Forwarding = Partial<Record<'user_id' | 'customer_id' | 'data_access_roles' | 'original_jwt', boolean>>;

/** A token of initech's identity provider. */
async function oidcToken(roles: string[]): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ roles, groups: ['hr', 'emea'], name: 'Ines Initech' })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setIssuer(oidcIssuer)
    .setAudience(oidcAudience)
    .setSubject('00u1a2b3c4')
    .setIssuedAt(now - 10)
    .setExpirationTime(now + 300)
    .sign(signingKey);
}

async function groupWithEndpoints(
  customerId: string,
  endpoints: Array<{ name: string; path: string; authz_forwarding?: Forwarding }>,
  allowedRoles: string[] = [],
): Promise<string> {
  const admin = customerId === 'initech' ? await oidcToken(['GC.Admin']) : await server.login(customerId, 'admin');
  const reply = await server.call(
    '/api/v1/sources/group/save',
    {
      name: `Endpoints ${Date.now()} ${Math.random()}`,
      allowed_roles: allowedRoles,
      endpoints: endpoints.map(({ path, ...rest }) => ({ ...rest, url: `${endpoint.url}${path}` })),
    },
    { token: admin },
  );
  assert.equal(reply.status, 200, reply.text);
  return reply.body.group_id;
}

function validate(
  groups: string[],
  credentials: { token?: string; body?: object },
  answer = 'Full-time employees get 25 days of paid leave.',
) {
  return server.call(
    '/api/v1/validate',
    { mode: 'validate', question, chatbot_response: answer, source_groups: groups, ...credentials.body },
    { token: credentials.token },
  );
}

/** The requests the endpoint received with this `e=` marker in their query. */
const received = (marker: string) => endpoint.requests.filter((r) => new URL(r.path, 'http://x').searchParams.get('e') === marker);

/** The X-Service-* and Authorization headers of the one request with this marker. */
function forwardedTo(marker: string): Record<string, string> {
  const requests = received(marker);
  assert.equal(requests.length, 1, `requests for ${marker}`);
  const headers = requests[0]!.headers as IncomingHttpHeaders;
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => name.startsWith('x-service-') || name === 'authorization') as [string, string][],
  );
}

describe('API-backed endpoints', () => {
  test('a local user: headers exactly as each endpoint forwards them, credentials only for their URL, no JWT', async () => {
    const token = await server.login('acme', 'user');
    const me = await server.call('/auth/me', undefined, { token });
    const run = `local-${Date.now()}`;
    const group = await groupWithEndpoints('acme', [
      { name: 'None', path: `/search?e=${run}-none` },
      { name: 'User only', path: `/search?e=${run}-user`, authz_forwarding: { user_id: true } },
      {
        name: 'Everything',
        path: `/search?e=${run}-all`,
        authz_forwarding: { user_id: true, customer_id: true, data_access_roles: true, original_jwt: true },
      },
    ]);
    // The operator's credentials are for `/search?e=all` exactly; this endpoint's URL differs only in its query.
    const reply = await validate([group], { token });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(forwardedTo(`${run}-none`), {});
    assert.deepEqual(forwardedTo(`${run}-user`), { 'x-service-user-id': me.body.principal.id });
    assert.deepEqual(forwardedTo(`${run}-all`), {
      'x-service-user-id': me.body.principal.id,
      'x-service-customer-id': 'acme',
      'x-service-data-access-roles': 'hr',
    });
    const request = received(`${run}-none`)[0]!;
    assert.equal(request.method, 'POST');
    assert.match(String(request.headers['content-type']), /^application\/json/);
    assert.deepEqual(request.json, { question });
  });

  test("the operator's credentials go to exactly their URL", async () => {
    const group = await groupWithEndpoints('acme', [
      { name: 'Configured', path: '/search?e=all', authz_forwarding: { customer_id: true } },
    ]);
    const before = received('all').length;
    const reply = await validate([group], { token: await server.login('acme', 'user') });
    assert.equal(reply.status, 200, reply.text);
    const request = received('all')[before]!;
    assert.equal(request.headers.authorization, `Bearer ${downstreamSecret}`);
    assert.equal(request.headers['x-service-customer-id'], 'acme');
    assert.ok(!reply.text.includes(downstreamSecret) && !logLines.join('').includes(downstreamSecret));
  });

  test('an API key: its key id and no data-access roles are forwarded, and no JWT', async () => {
    const run = `key-${Date.now()}`;
    const group = await groupWithEndpoints('acme', [
      {
        name: 'Everything',
        path: `/search?e=${run}`,
        authz_forwarding: { user_id: true, customer_id: true, data_access_roles: true, original_jwt: true },
      },
    ]);
    const reply = await validate([group], { body: server.apiKeyBody('acme', 'user') });
    assert.equal(reply.status, 200, reply.text);
    const headers = forwardedTo(run);
    assert.match(headers['x-service-user-id']!, /^key_/);
    assert.deepEqual(
      { ...headers, 'x-service-user-id': undefined },
      {
        'x-service-user-id': undefined,
        'x-service-customer-id': 'acme',
        'x-service-data-access-roles': '',
      },
    );
  });

  test('an OIDC caller: the original JWT is forwarded when allowed, and never logged or answered', async () => {
    const jwt = await oidcToken(['GC.Reviewer']);
    const run = `oidc-${Date.now()}`;
    const group = await groupWithEndpoints('initech', [
      { name: 'Roles only', path: `/search?e=${run}-roles`, authz_forwarding: { data_access_roles: true } },
      {
        name: 'Everything',
        path: `/search?e=${run}-all`,
        authz_forwarding: { user_id: true, customer_id: true, data_access_roles: true, original_jwt: true },
      },
      { name: 'Failing', path: `/error?e=${run}-error`, authz_forwarding: { original_jwt: true } },
    ]);
    const reply = await validate([group], { token: jwt });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(forwardedTo(`${run}-roles`), { 'x-service-data-access-roles': 'hr,emea' });
    assert.deepEqual(forwardedTo(`${run}-all`), {
      'x-service-user-id': 'sub:00u1a2b3c4',
      'x-service-customer-id': 'initech',
      'x-service-data-access-roles': 'hr,emea',
      'x-service-original-jwt': jwt,
    });
    assert.deepEqual(reply.body.metadata.skipped_sources, [
      explained({ kind: 'endpoint', reference: 'Failing', group_id: group, reason: 'fetch_failed' }),
    ]);
    assert.ok(logLines.some((line) => line.includes('source endpoint skipped')));
    assert.ok(!logLines.join('').includes(jwt), 'the JWT is not logged');
    assert.ok(!reply.text.includes(jwt), 'the JWT is not answered');
  });

  test("an endpoint's passages are sources that support a claim", async () => {
    const group = await groupWithEndpoints('acme', [{ name: 'HR search', path: '/search?e=passages' }]);
    const reply = await validate([group], { token: await server.login('acme', 'user') });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(reply.body.sources, [
      {
        source_id: 'src_1',
        kind: 'endpoint',
        reference: 'HR search: handbook.pdf#p3',
        group_id: group,
        sha256: createHash('sha256').update(policy).digest('hex'),
      },
    ]);
    assert.equal(reply.body.issue_count, 0, JSON.stringify(reply.body.findings));
    assert.ok(reply.body.claims.some((claim: { status: string }) => claim.status === 'supported'));

    const contradicted = await validate(
      [group],
      { token: await server.login('acme', 'user') },
      'Full-time employees get 30 days of paid leave.',
    );
    assert.ok(contradicted.body.claims.some((claim: { status: string }) => claim.status === 'contradicted'));
  });

  test('the endpoint of a group the caller may not use is never called', async () => {
    const run = `forbidden-${Date.now()}`;
    const forbidden = await groupWithEndpoints('acme', [{ name: 'Finance search', path: `/search?e=${run}` }], ['finance']);
    const reply = await validate([forbidden, 'grp_01JD3XA1B2C3D4E5F6G7H8J9K0'], { token: await server.login('acme', 'user') });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(reply.body.metadata.skipped_sources, [
      explained({ kind: 'source_group', reference: forbidden, reason: 'access_denied' }),
      explained({ kind: 'source_group', reference: 'grp_01JD3XA1B2C3D4E5F6G7H8J9K0', reason: 'access_denied' }),
    ]);
    assert.equal(reply.body.metadata.source_access_filtered, true);
    assert.deepEqual(reply.body.sources, []);
    assert.ok(reply.body.issue_count > 0, 'the claim is not supported');
    assert.equal(received(run).length, 0);
  });

  test("the guard refuses an endpoint the tenant's outbound policy does not allow; it receives nothing", async () => {
    const run = `refused-${Date.now()}`;
    const group = await groupWithEndpoints('globex', [{ name: 'Loopback', path: `/search?e=${run}`, authz_forwarding: { user_id: true } }]);
    const reply = await validate([group], { token: await server.login('globex', 'user') });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(reply.body.metadata.skipped_sources, [
      explained({ kind: 'endpoint', reference: 'Loopback', group_id: group, reason: 'blocked_address' }),
    ]);
    assert.equal(received(run).length, 0);
  });

  test('answers out of format are skipped with their reason; a redirect is not followed', async () => {
    const group = await groupWithEndpoints('acme', [
      { name: 'HTML', path: '/html' },
      { name: 'Other shape', path: '/shape' },
      { name: 'Server error', path: '/error' },
      { name: 'Redirect', path: '/redirect' },
      { name: 'Over 1 MiB', path: '/huge' },
    ]);
    const reply = await validate([group], { token: await server.login('acme', 'user') });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(
      reply.body.metadata.skipped_sources.map((s: { reference: string; reason: string }) => [s.reference, s.reason]),
      [
        ['HTML', 'unsupported_content'],
        ['Other shape', 'unsupported_content'],
        ['Server error', 'fetch_failed'],
        ['Redirect', 'fetch_failed'],
        ['Over 1 MiB', 'too_large'],
      ],
    );
    assert.equal(received('redirected').length, 0);
    assert.ok(reply.body.findings.some((f: { category: string }) => f.category === 'source_unavailable'));
  });
});

describe('forwardedHeaders', () => {
  const principal = {
    id: 'sub:Jürgen Müller',
    tenant: { customerId: 'acme' },
    dataAccessRoles: ['hr', 'Geschäftsführung', 'a,b', '50%'],
    originalJwt: new SecretString('eyJ.a.b'),
  } as unknown as Principal;

  test('all off by default', () => {
    assert.deepEqual(forwardedHeaders(principal), {});
    assert.deepEqual(forwardedHeaders(principal, { user_id: false, original_jwt: false }), {});
  });

  test('values a header cannot carry, and the list separator, are percent-encoded; plain ids pass unchanged', () => {
    const headers = forwardedHeaders(principal, { user_id: true, customer_id: true, data_access_roles: true, original_jwt: true });
    assert.deepEqual(headers, {
      'x-service-user-id': 'sub:J%C3%BCrgen%20M%C3%BCller',
      'x-service-customer-id': 'acme',
      'x-service-data-access-roles': 'hr,Gesch%C3%A4ftsf%C3%BChrung,a%2Cb,50%25',
      'x-service-original-jwt': 'eyJ.a.b',
    });
    assert.deepEqual(headers['x-service-data-access-roles']!.split(',').map(decodeURIComponent), principal.dataAccessRoles);
  });

  test('the token never shows in JSON or inspection', () => {
    assert.equal(JSON.stringify({ principal }).includes('eyJ.a.b'), false);
    assert.equal(inspect(principal).includes('eyJ.a.b'), false);
    assert.equal(String(principal.originalJwt), '[redacted]');
  });
});
