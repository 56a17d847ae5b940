// The guarded client against real listeners on 127.0.0.1. No test sends traffic anywhere else: every
// host name goes through an injected resolver that answers only loopback addresses.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { createOutboundClient, type OutboundClientOptions } from '../../src/outbound/outbound-client.js';
import { OutboundRefusal, type OutboundRefusalReason } from '../../src/outbound/outbound-refusal.js';
import { type LoopbackServer, startLoopbackServer } from './loopback-server.js';

/** A resolver for test host names; anything else fails as an unknown name, never reaching real DNS. */
function fakeDns(table: Record<string, string[]>) {
  const calls: string[] = [];
  const resolve = async (hostName: string) => {
    calls.push(hostName);
    const answer = table[hostName];
    if (!answer) throw Object.assign(new Error(`unknown test host ${hostName}`), { code: 'ENOTFOUND' });
    return answer;
  };
  return { resolve, calls };
}

async function refusalOf(promise: Promise<unknown>): Promise<OutboundRefusal> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof OutboundRefusal, `expected an OutboundRefusal, got ${String(error)}`);
    return error;
  }
  assert.fail('the request was not refused');
}

async function assertRefused(promise: Promise<unknown>, reason: OutboundRefusalReason): Promise<OutboundRefusal> {
  const refusal = await refusalOf(promise);
  assert.equal(refusal.reason, reason, refusal.message);
  return refusal;
}

describe('refusals before any connection', () => {
  let trap: LoopbackServer;
  before(async () => {
    trap = await startLoopbackServer();
  });
  after(async () => {
    // The listener stands for an internal service: nothing may have reached it.
    assert.equal(trap.connections, 0);
    await trap.close();
  });

  const client = (options: OutboundClientOptions = {}) => createOutboundClient({ resolve: fakeDns({}).resolve, ...options });

  it('refuses loopback in every literal spelling when loopback is not allowlisted', async () => {
    for (const host of [
      '127.0.0.1',
      '2130706433',
      '0177.0.0.1',
      '0x7f.1',
      '127.1',
      '[::ffff:127.0.0.1]',
      '[::127.0.0.1]',
      '[::1]',
      '0.0.0.0',
    ]) {
      await assertRefused(client().request(`http://${host}:${trap.port}/`), 'address_not_allowed');
    }
  });

  it('refuses 0.0.0.0 even when it is allowlisted, since it reaches this host', async () => {
    await assertRefused(client({ allow: ['0.0.0.0', '127.0.0.1'] }).request(`http://0.0.0.0:${trap.port}/`), 'address_not_allowed');
  });

  it('refuses a host name that resolves to loopback', async () => {
    const dns = fakeDns({ 'internal.test': ['127.0.0.1'] });
    await assertRefused(client({ resolve: dns.resolve }).request(`http://internal.test:${trap.port}/`), 'address_not_allowed');
    assert.deepEqual(dns.calls, ['internal.test']);
  });

  it('refuses localhost through the system resolver', async () => {
    await assertRefused(createOutboundClient().request(`http://localhost:${trap.port}/`), 'address_not_allowed');
  });

  it('refuses a host when any of its addresses is refused', async () => {
    const dns = fakeDns({ 'mixed.test': ['127.0.0.1', '127.0.0.2'] });
    await assertRefused(
      client({ allow: ['127.0.0.1'], resolve: dns.resolve }).request(`http://mixed.test:${trap.port}/`),
      'address_not_allowed',
    );
  });

  it('refuses other schemes, credentials and malformed URLs', async () => {
    const open = client({ allow: ['127.0.0.1'] });
    await assertRefused(open.request(`ftp://127.0.0.1:${trap.port}/`), 'scheme_not_allowed');
    await assertRefused(open.request('file:///etc/passwd'), 'scheme_not_allowed');
    await assertRefused(open.request(`http://user:pw@127.0.0.1:${trap.port}/`), 'credentials_in_url');
    await assertRefused(open.request('not a url'), 'invalid_url');
  });

  it('reports a name that does not resolve as dns_failed', async () => {
    await assertRefused(client().request('http://nowhere.test/'), 'dns_failed');
    await assertRefused(client({ resolve: async () => [] }).request('http://empty.test/'), 'dns_failed');
  });

  it('cuts a connection attempt that does not complete within the connect timeout', async () => {
    const started = Date.now();
    const hanging = client({ resolve: () => new Promise<string[]>(() => {}), connectTimeoutMs: 150 });
    await assertRefused(hanging.request('http://slow-dns.test/'), 'timeout');
    assert.ok(Date.now() - started < 2000);
  });
});

describe('requests to an allowlisted loopback server', () => {
  let server: LoopbackServer;
  let trap: LoopbackServer;
  let other: LoopbackServer;
  const dns = fakeDns({ 'good.test': ['127.0.0.1'], 'other.test': ['127.0.0.1'] });
  const client = createOutboundClient({
    allow: ['good.test', 'other.test'],
    resolve: dns.resolve,
    maxBytes: 64 * 1024,
    totalTimeoutMs: 2000,
  });
  const byAddress = createOutboundClient({ allow: ['127.0.0.1'], resolve: dns.resolve, totalTimeoutMs: 2000 });

  before(async () => {
    trap = await startLoopbackServer();
    other = await startLoopbackServer((_request, response) => response.end('other'));
    server = await startLoopbackServer((request, response) => {
      const path = request.url ?? '/';
      if (path === '/hello') {
        response.setHeader('set-cookie', 'session=abc');
        response.setHeader('content-type', 'application/json; charset=utf-8');
        response.end(JSON.stringify({ method: request.method, body: request.body }));
      } else if (path === '/to-trap') {
        response.writeHead(302, { location: `http://127.0.0.1:${trap.port}/stolen` }).end();
      } else if (path === '/to-trap-mapped') {
        response.writeHead(307, { location: `http://[::ffff:7f00:1]:${trap.port}/stolen` }).end();
      } else if (path === '/to-file') {
        response.writeHead(302, { location: 'file:///etc/passwd' }).end();
      } else if (path === '/loop') {
        response.writeHead(302, { location: '/loop' }).end();
      } else if (path === '/same-origin') {
        response.writeHead(302, { location: '/hello', 'set-cookie': 'jar=1' }).end();
      } else if (path === '/see-other') {
        response.writeHead(303, { location: '/hello' }).end();
      } else if (path === '/cross-origin') {
        response.writeHead(307, { location: `http://other.test:${other.port}/landing` }).end();
      } else if (path === '/big') {
        response.write(Buffer.alloc(40 * 1024, 'a'));
        response.end(Buffer.alloc(40 * 1024, 'b'));
      } else if (path === '/big-declared') {
        response.writeHead(200, { 'content-length': String(10 * 1024 * 1024) });
        response.write('x'); // then nothing: the client must not wait for the rest
      } else if (path === '/gzip-bomb') {
        response.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(Buffer.alloc(8 * 1024 * 1024)));
      } else if (path === '/gzip') {
        response.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/plain' }).end(gzipSync('compressed text'));
      } else if (path === '/slow-body') {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.write('first bytes');
        setTimeout(() => response.end('too late'), 5000).unref();
      } else if (path === '/silent') {
        // never answers
      } else if (path === '/error') {
        response.writeHead(500, { 'content-type': 'text/plain' }).end('boom');
      } else if (path === '/html') {
        response.writeHead(200, { 'content-type': 'text/html' }).end('<p>hi</p>');
      } else {
        response.end('ok');
      }
    });
  });
  after(async () => {
    await Promise.all([server.close(), trap.close(), other.close()]);
  });

  it('sends the request and returns status, headers and body, without cookies', async () => {
    const response = await client.request(`http://good.test:${server.port}/hello`, {
      method: 'POST',
      body: 'payload',
      headers: { cookie: 'smuggled=1', 'content-type': 'text/plain' },
    });
    assert.equal(response.status, 200);
    assert.deepEqual(JSON.parse(response.body.toString()), { method: 'POST', body: 'payload' });
    assert.equal(response.headers['set-cookie'], undefined);
    assert.equal(response.finalUrl, `http://good.test:${server.port}/hello`);
    assert.equal(server.requests.at(-1)!.headers.cookie, undefined);
    assert.equal(server.requests.at(-1)!.headers.host, `good.test:${server.port}`);
  });

  it('allows a literal address the operator listed', async () => {
    const response = await byAddress.request(`${server.origin}/plain`);
    assert.equal(response.body.toString(), 'ok');
  });

  it('resolves each host name once per connection, in the lookup that connects', async () => {
    const before = dns.calls.length;
    await client.request(`http://good.test:${server.port}/plain`);
    assert.equal(dns.calls.length - before, 1);
  });

  it('does not follow a redirect to a refused address', async () => {
    await assertRefused(client.request(`http://good.test:${server.port}/to-trap`), 'address_not_allowed');
    await assertRefused(client.request(`http://good.test:${server.port}/to-trap-mapped`), 'address_not_allowed');
    await assertRefused(client.request(`http://good.test:${server.port}/to-file`), 'scheme_not_allowed');
    assert.equal(trap.connections, 0);
  });

  it('stops after the maximum number of redirects', async () => {
    const before = server.requests.length;
    await assertRefused(client.request(`http://good.test:${server.port}/loop`), 'too_many_redirects');
    assert.equal(server.requests.length - before, 4); // the first request and three redirects
    const strict = createOutboundClient({ allow: ['127.0.0.1'], maxRedirects: 0 });
    await assertRefused(strict.request(`${server.origin}/loop`), 'too_many_redirects');
  });

  it('follows a same-origin redirect without sending the cookie it set', async () => {
    const response = await client.request(`http://good.test:${server.port}/same-origin`, { headers: { authorization: 'Bearer t' } });
    assert.equal(response.redirects, 1);
    assert.equal(response.finalUrl, `http://good.test:${server.port}/hello`);
    const landed = server.requests.at(-1)!;
    assert.equal(landed.headers.cookie, undefined);
    assert.equal(landed.headers.authorization, 'Bearer t');
  });

  it('turns a POST into a GET without body on 303', async () => {
    const response = await client.request(`http://good.test:${server.port}/see-other`, { method: 'POST', body: 'x' });
    assert.deepEqual(JSON.parse(response.body.toString()), { method: 'GET', body: '' });
  });

  it('drops credentials and forwarded identity on a redirect to another origin', async () => {
    await client.request(`http://good.test:${server.port}/cross-origin`, {
      headers: { authorization: 'Bearer secret', 'x-service-original-jwt': 'jwt', 'x-service-user-id': 'u1', accept: 'text/plain' },
    });
    const landed = other.requests.at(-1)!;
    assert.equal(landed.headers.authorization, undefined);
    assert.equal(landed.headers['x-service-original-jwt'], undefined);
    assert.equal(landed.headers['x-service-user-id'], undefined);
    assert.equal(landed.headers.accept, 'text/plain');
  });

  it('cuts a response larger than the limit, declared or streamed', async () => {
    await assertRefused(client.request(`http://good.test:${server.port}/big`), 'too_large');
    const started = Date.now();
    await assertRefused(client.request(`http://good.test:${server.port}/big-declared`), 'too_large');
    assert.ok(Date.now() - started < 1000);
  });

  it('counts the decompressed size, so a compression bomb is cut', async () => {
    await assertRefused(client.request(`http://good.test:${server.port}/gzip-bomb`), 'too_large');
    const response = await client.request(`http://good.test:${server.port}/gzip`);
    assert.equal(response.body.toString(), 'compressed text');
  });

  it('cuts a slow response at the total timeout', async () => {
    const started = Date.now();
    await assertRefused(client.request(`http://good.test:${server.port}/slow-body`, { totalTimeoutMs: 300 }), 'timeout');
    await assertRefused(client.request(`http://good.test:${server.port}/silent`, { totalTimeoutMs: 300 }), 'timeout');
    assert.ok(Date.now() - started < 2000);
  });

  it('reports a cancelled request as aborted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await assertRefused(client.request(`http://good.test:${server.port}/silent`, { signal: controller.signal }), 'aborted');
  });

  it('refuses error statuses unless the caller accepts them', async () => {
    const refusal = await assertRefused(client.request(`http://good.test:${server.port}/error`), 'http_error');
    assert.equal(refusal.status, 500);
    const response = await client.request(`http://good.test:${server.port}/error`, { acceptStatus: () => true });
    assert.equal(response.status, 500);
  });

  it('refuses a response whose content type was not asked for', async () => {
    await assertRefused(
      client.request(`http://good.test:${server.port}/html`, { accept: ['application/json'] }),
      'unsupported_content_type',
    );
    const response = await client.request(`http://good.test:${server.port}/hello`, { accept: ['application/json'] });
    assert.equal(server.requests.at(-1)!.headers.accept, 'application/json');
    assert.equal(response.status, 200);
    assert.equal((await client.request(`http://good.test:${server.port}/html`, { accept: ['text/*'] })).status, 200);
  });

  it('returns a redirect as it is in manual mode', async () => {
    const response = await client.request(`http://good.test:${server.port}/to-trap`, { redirect: 'manual', acceptStatus: () => true });
    assert.equal(response.status, 302);
    assert.equal(trap.connections, 0);
  });
});
