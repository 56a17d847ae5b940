// Regressions for the black-box probe of the platform (issue 8), each through HTTP on loopback.
// The OIDC cases (role names from Object.prototype, malformed claims) are in oidc.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { loadContract } from '../../src/contract/contract.js';
import { maxFieldErrors } from '../../src/contract/validator.js';
import { UserStore } from '../../src/cosmos/user-store.js';
import { maxBodyMembers } from '../../src/http/body-parser.js';
import { csvCell } from '../../src/lib/csv.js';
import { actors, auditFixture, tenantsOf } from '../support/audit.js';
import { capturedLog } from '../support/captured-log.js';
import { email, password } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/harness.js';
import { openRaw, sendRaw } from '../support/raw-http.js';
import { worstBodies } from '../support/worst-bodies.js';

let server: TestServer;
let admin: string;
before(async () => {
  server = await startTestServer({ fixture: await auditFixture() });
  admin = await server.login('acme', 'admin');
});
after(() => server.close());

const contract = loadContract();
const login = (customerId = 'acme') => ({ email: email('acme', 'user'), password: 'wrong-password', customer_id: customerId });

describe('request validation has a bounded cost', () => {
  test('every worst body of every operation is refused (413 past 10 000 members, else 400 with at most 20 errors)', async () => {
    const bodies = worstBodies(contract);
    assert.ok(bodies.length > 60, `${bodies.length} bodies`);
    for (const { operation, name, body } of bodies) {
      const path = operation.pathTemplate.replace(
        '{id}',
        operation.pathTemplate.includes('templates') ? 'tpl_01JD3XC4D5E6F7G8H9J0K1M2N3' : 'val_01JD3X8Q5Z7M2N4P6R8T0V2W4Y',
      );
      const reply = await server.call(path, body, operation.requiredRole === 'none' ? {} : { token: admin });
      const what = `${operation.operationId} (${name}): ${reply.text.slice(0, 300)}`;
      // Members are the `":` of the generated bodies, whose strings hold none.
      if (JSON.stringify(body).split('":').length - 1 > maxBodyMembers) {
        assert.equal(reply.status, 413, what);
        assert.match(reply.body.detail, /more than 10000 object members/);
      } else {
        assert.equal(reply.status, 400, what);
        assert.ok(reply.body.errors?.length >= 1 && reply.body.errors.length <= maxFieldErrors, what);
      }
    }
    assert.equal((await server.call('/healthz', undefined, { method: 'GET' })).status, 200);
  });

  test('64 000 distinct source groups are refused by their count, before any pair is compared', async () => {
    const groups = Array.from({ length: 64_000 }, (_, i) => `g${i}`);
    const reply = await server.call(
      '/api/v1/validate',
      { mode: 'validate', question: 'q', chatbot_response: 'a', source_groups: groups },
      { token: admin },
    );
    assert.equal(reply.status, 400, reply.text.slice(0, 300));
    assert.deepEqual(reply.body.errors, [{ pointer: '/source_groups', detail: 'must have at most 20 items' }]);
  });

  test('a body with thousands of unknown fields lists 20 and counts them all', async () => {
    const keys = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`unknown_${i}`, 1]));
    const reply = await server.call('/api/v1/history', keys, { token: admin });
    assert.equal(reply.status, 400);
    assert.equal(reply.body.errors.length, maxFieldErrors);
    assert.match(reply.body.detail, /5000 invalid fields; the first 20 are listed/);
  });

  test('the member count ignores colons inside strings and escaped quotes', async () => {
    const text = `a\\":${':'.repeat(20_000)}`;
    const reply = await server.call('/api/v1/validate', { mode: 'generate', question: 'q', inline_text: text }, { token: admin });
    assert.notEqual(reply.status, 413, reply.text.slice(0, 300));
  });

  test('audit kinds are bounded', async () => {
    const kinds = Array.from({ length: 9 }, () => 'approved');
    const reply = await server.call('/api/v1/audit', { kinds }, { token: admin });
    assert.equal(reply.status, 400);
    assert.deepEqual(reply.body.errors, [{ pointer: '/kinds', detail: 'must have at most 8 items' }]);
  });
});

describe('calls without credentials are cheap', () => {
  test('a login body over 8 KiB is refused with 413', async () => {
    const keys = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, 1]));
    const reply = await server.call('/auth/login', { ...login(), ...keys });
    assert.equal(reply.status, 413, reply.text);
    assert.equal(reply.body.code, 'payload_too_large');
    assert.ok(reply.text.length < 1000);
  });

  test('login calls are limited per client address, before the body is read', async () => {
    const limited = await startTestServer({ env: { ANONYMOUS_RATE_LIMIT: '3' } });
    try {
      for (let i = 0; i < 3; i += 1) assert.equal((await limited.call('/auth/login', login())).status, 401);
      const refused = await limited.call('/auth/login', undefined, { raw: '{"not json' });
      assert.equal(refused.status, 429, refused.text);
      assert.equal(refused.body.code, 'rate_limited');
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
      // Calls with credentials are counted against the tenant, not the address.
      const token = await limited.call('/auth/me', undefined, { token: 'x.y.z' });
      assert.equal(token.status, 401);
    } finally {
      await limited.close();
    }
  });
});

describe('request bodies: encoding, content type and charset', () => {
  for (const encoding of ['gzip', 'deflate', 'br']) {
    test(`a body with Content-Encoding ${encoding} answers 415, not 500`, async () => {
      const reply = await server.call('/auth/login', undefined, { raw: '{}', headers: { 'content-encoding': encoding } });
      assert.equal(reply.status, 415, reply.text);
      assert.equal(reply.body.code, 'unsupported_media_type');
    });
  }

  test('a well-formed gzip body is refused too (compressed bodies are not accepted)', async () => {
    const reply = await sendRaw(
      server.url,
      Buffer.concat([
        Buffer.from(
          `POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: ${gzipSync(JSON.stringify(login())).length}\r\nConnection: close\r\n\r\n`,
        ),
        gzipSync(JSON.stringify(login())),
      ]),
    );
    assert.equal(reply.status, 415);
  });

  test('a body without Content-Type answers 415 instead of being ignored', async () => {
    const body = JSON.stringify({ format: 'csv' });
    const reply = await sendRaw(
      server.url,
      `POST /api/v1/audit/export HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${admin}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    assert.equal(reply.status, 415, reply.body);
    assert.equal(JSON.parse(reply.body).code, 'unsupported_media_type');
    const invalid = JSON.stringify({ limit: 'many' });
    const audit = await sendRaw(
      server.url,
      `POST /api/v1/audit HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${admin}\r\nContent-Length: ${invalid.length}\r\nConnection: close\r\n\r\n${invalid}`,
    );
    assert.equal(audit.status, 415);
  });

  test('an empty body without Content-Type is still an empty request', async () => {
    const reply = await sendRaw(
      server.url,
      `POST /api/v1/audit HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${admin}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
    );
    assert.equal(reply.status, 200, reply.body);
  });

  for (const charset of ['utf-16le', 'utf-16be', 'iso-8859-1']) {
    test(`a body declared charset=${charset} answers 415`, async () => {
      const reply = await server.call('/auth/login', undefined, {
        raw: JSON.stringify(login()),
        headers: { 'content-type': `application/json; charset=${charset}` },
      });
      assert.equal(reply.status, 415, reply.text);
    });
  }

  test('charset=UTF-8 in any case is accepted', async () => {
    const reply = await server.call('/auth/login', undefined, {
      raw: JSON.stringify(login()),
      headers: { 'content-type': 'application/json; charset=UTF-8' },
    });
    assert.equal(reply.status, 401);
  });
});

describe('client addresses behind proxies', () => {
  test('with TRUST_PROXY=1 the login lock keys on the address the proxy saw, not on what the client prepends', async () => {
    const proxied = await startTestServer({
      env: { TRUST_PROXY: '1' },
      loginThrottle: { perAccount: 100, perAddress: 3, windowSeconds: 60 },
    });
    try {
      const attempt = (i: number) =>
        proxied.call(
          '/auth/login',
          { ...login(), email: `nobody${i}@acme.test` },
          { headers: { 'x-forwarded-for': `10.9.${i}.1, 203.0.113.7` } },
        );
      for (let i = 0; i < 3; i += 1) assert.equal((await attempt(i)).status, 401);
      const locked = await attempt(99);
      assert.equal(locked.status, 429, locked.text);
      assert.equal(locked.body.code, 'too_many_login_attempts');
      // Another real client address is not locked.
      const other = await proxied.call('/auth/login', login(), { headers: { 'x-forwarded-for': '203.0.113.8' } });
      assert.equal(other.status, 401);
    } finally {
      await proxied.close();
    }
  });
});

describe('unknown tenants cost the same work at login', () => {
  test('an unknown customer_id looks the user up like a known one does', async () => {
    const original = UserStore.prototype.findByEmail;
    const lookups: string[] = [];
    UserStore.prototype.findByEmail = function (this: UserStore, customerId: string, address: string) {
      lookups.push(customerId);
      return original.call(this, customerId, address);
    };
    try {
      assert.equal((await server.call('/auth/login', login('no-such-tenant'))).status, 401);
      assert.equal((await server.call('/auth/login', login('acme'))).status, 401);
    } finally {
      UserStore.prototype.findByEmail = original;
    }
    assert.deepEqual(lookups, ['no-such-tenant', 'acme']);
  });
});

describe('security headers', () => {
  test('every response, the login token included, says no-store and nosniff', async () => {
    const signIn = await server.call('/auth/login', {
      email: email('acme', 'user'),
      password: password('acme', 'user'),
      customer_id: 'acme',
    });
    const problem = await server.call('/api/v1/nothing', {});
    const health = await server.call('/healthz', undefined, { method: 'GET' });
    for (const reply of [signIn, problem, health]) {
      assert.equal(reply.headers.get('cache-control'), 'no-store');
      assert.equal(reply.headers.get('x-content-type-options'), 'nosniff');
      assert.match(reply.headers.get('content-security-policy') ?? '', /default-src 'none'/);
      assert.equal(reply.headers.get('x-powered-by'), null);
      assert.equal(reply.headers.get('x-frame-options'), 'DENY');
    }
  });
});

describe('requests the HTTP parser refuses get a problem body', () => {
  const cases: [string, string, number, string][] = [
    ['a NUL in a header value', 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\x00b\r\n\r\n', 400, 'malformed_request'],
    ['a bare CR in a header value', 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n', 400, 'malformed_request'],
    ['an unknown method', 'BREW /healthz HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'malformed_request'],
    [
      'Content-Length with Transfer-Encoding',
      'POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      400,
      'malformed_request',
    ],
    ['headers over 16 KiB', `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n`, 431, 'headers_too_large'],
  ];
  for (const [name, request, status, code] of cases) {
    test(name, async () => {
      const reply = await sendRaw(server.url, request);
      assert.equal(reply.status, status, JSON.stringify(reply));
      assert.equal(reply.headers['content-type'], 'application/problem+json; charset=utf-8');
      const body = JSON.parse(reply.body);
      assert.equal(body.code, code);
      assert.equal(body.status, status);
      assert.match(reply.headers['x-request-id'] ?? '', /^req_/);
      assert.equal(body.request_id, reply.headers['x-request-id']);
    });
  }

  test('headers that do not arrive within HTTP_HEADERS_TIMEOUT_MS get 408', async () => {
    const slow = await startTestServer({ env: { HTTP_HEADERS_TIMEOUT_MS: '1000' } });
    try {
      const started = Date.now();
      const reply = await sendRaw(slow.url, 'GET /healthz HTTP/1.1\r\nHost: x\r\n', { timeoutMs: 10_000 });
      assert.equal(reply.status, 408, JSON.stringify(reply));
      assert.equal(JSON.parse(reply.body).code, 'request_timeout');
      assert.ok(Date.now() - started < 8000);
    } finally {
      await slow.close();
    }
  });

  test('a body without credentials in the headers must arrive within HTTP_UNAUTHENTICATED_BODY_TIMEOUT_MS; with a bearer token it may take longer', async () => {
    const slow = await startTestServer({ env: { HTTP_UNAUTHENTICATED_BODY_TIMEOUT_MS: '1000' } });
    try {
      // Ten bytes promised, one sent: the answer is a 408, long before the 120 s request timeout.
      const reply = await sendRaw(
        slow.url,
        'POST /api/v1/stats HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{',
        {
          timeoutMs: 30_000,
        },
      );
      assert.equal(reply.status, 408, JSON.stringify(reply));
      assert.equal(JSON.parse(reply.body).code, 'request_timeout');
      // With a bearer token the body may come slowly, within the request timeout.
      const token = await slow.login('acme', 'viewer');
      const socket = await openRaw(
        slow.url,
        `POST /api/v1/stats HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{`,
      );
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      await sleep(1500);
      socket.write('}');
      await new Promise((resolve) => socket.once('close', resolve));
      assert.match(Buffer.concat(chunks).toString(), /^HTTP\/1\.1 200 /);
    } finally {
      await slow.close();
    }
  });

  test('a bearer token is checked before the body is read: a bad one gets 401 while the body is still to come', async () => {
    // A megabyte promised and none sent: the answer cannot wait for the body.
    for (const authorization of ['Bearer not-a-token', 'Basic dXNlcjpwYXNz']) {
      const reply = await sendRaw(
        server.url,
        `POST /api/v1/validate HTTP/1.1\r\nHost: x\r\nAuthorization: ${authorization}\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\nConnection: close\r\n\r\n`,
        { timeoutMs: 30_000 },
      );
      assert.equal(reply.status, 401, JSON.stringify(reply));
      assert.equal(JSON.parse(reply.body).code, 'invalid_token');
    }
  });

  test('connections beyond HTTP_MAX_CONNECTIONS are closed', async () => {
    const small = await startTestServer({ env: { HTTP_MAX_CONNECTIONS: '2' } });
    const held = await Promise.all([
      openRaw(small.url, 'GET /healthz HTTP/1.1\r\nHost: x\r\n'),
      openRaw(small.url, 'GET /healthz HTTP/1.1\r\nHost: x\r\n'),
    ]);
    try {
      await sleep(100);
      const third = await sendRaw(small.url, 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n').catch(() => ({ status: 0 }));
      assert.equal(third.status, 0, 'the third connection got no answer');
    } finally {
      for (const socket of held) socket.destroy();
      await small.close();
    }
  });
});

describe('a client that aborts mid-body', () => {
  test('is logged once at info, without an error or a stack', async () => {
    const { log, lines } = capturedLog();
    const logged = await startTestServer({ log });
    try {
      const socket = await openRaw(
        logged.url,
        `POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email":`,
      );
      await sleep(100);
      socket.destroy();
      await sleep(300);
    } finally {
      await logged.close();
    }
    const aborted = lines.filter((line) => /aborted/.test(line.msg));
    assert.equal(aborted.length, 1, JSON.stringify(lines));
    assert.equal(aborted[0]!.level, 30);
    assert.equal(lines.filter((line) => line.level >= 50).length, 0, JSON.stringify(lines));
  });
});

describe('HEAD', () => {
  test('HEAD /healthz answers like GET, without a body', async () => {
    const response = await fetch(`${server.url}/healthz`, { method: 'HEAD' });
    assert.equal(response.status, 200);
    assert.equal(await response.text(), '');
  });

  test('a path served by GET lists HEAD as allowed', async () => {
    const reply = await server.call('/healthz', {}, { method: 'POST' });
    assert.equal(reply.status, 405);
    assert.equal(reply.headers.get('allow'), 'GET, HEAD');
  });
});

describe('errors name the fields the caller sent', () => {
  test('a rolling window reaching before year 1 starts at 0001-01-01 instead of failing on a field never sent', async () => {
    const reply = await server.call('/api/v1/audit/export', { date_to: '0001-01-05', days: 3650 }, { token: admin });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body.date_from, '0001-01-01');
    assert.equal(reply.body.date_to, '0001-01-05');
  });
});

describe('CSV formula neutralisation', () => {
  const hostile = [' =1+1', '  @SUM(A1)', '\u00a0+1', '\uFF1D1+1', '\uFF0B1', '\uFF0D1', '\uFF20cmd', ' \uFF1Dx'];
  const harmless = ['plain', 'a=1', 'x @y', ''];

  test('cells whose first non-space character starts a formula, fullwidth forms too, get an apostrophe', () => {
    for (const cell of hostile) assert.equal(csvCell(cell).replace(/^"|"$/g, '').startsWith("'"), true, JSON.stringify(cell));
    for (const cell of harmless) assert.equal(csvCell(cell), cell);
  });

  test('the audit CSV export neutralises them', async () => {
    const tenant = tenantsOf(server.fixture).tiny!;
    for (const reference of hostile) {
      await server.services.audit.trail.append(tenant, {
        kind: 'review_handed_off',
        actor: actors.admin,
        validationId: null,
        data: { external_reference: reference },
      });
    }
    const reply = await server.call('/api/v1/audit/export', {
      ...server.apiKeyBody('tiny', 'admin'),
      format: 'csv',
      profile: 'raw',
      days: 1,
    });
    assert.equal(reply.status, 200, reply.text);
    for (const reference of hostile) assert.ok(reply.text.includes(`'${reference}`), JSON.stringify(reference));
  });
});
