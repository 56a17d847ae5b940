// What a redirect does to the next hop, without a network: the method change browsers make, and the
// headers that may not cross to another origin.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callerHeaders, type Hop, redirectedHop } from '../../src/outbound/outbound-client.js';
import { OutboundRefusal } from '../../src/outbound/outbound-refusal.js';

function hop(method: string, headers: Record<string, string> = {}): Hop {
  return { url: new URL('https://a.test/start'), method, headers, body: Buffer.from('x') };
}

describe('redirectedHop', () => {
  it('continues a 303 as a GET without body or content type', () => {
    const next = redirectedHop(hop('PUT', { 'content-type': 'text/plain', authorization: 'Bearer t' }), 303, '/next');
    assert.equal(next.url.href, 'https://a.test/next');
    assert.equal(next.method, 'GET');
    assert.equal(next.body, undefined);
    assert.deepEqual(next.headers, { authorization: 'Bearer t' });
  });

  it('continues a POST as a GET on 301 and 302, but keeps other methods and their body', () => {
    assert.equal(redirectedHop(hop('POST'), 301, '/next').method, 'GET');
    assert.equal(redirectedHop(hop('POST'), 302, '/next').method, 'GET');
    const put = redirectedHop(hop('PUT', { 'content-type': 'text/plain' }), 302, '/next');
    assert.equal(put.method, 'PUT');
    assert.equal(put.body?.toString(), 'x');
    assert.deepEqual(put.headers, { 'content-type': 'text/plain' });
    assert.equal(redirectedHop(hop('POST'), 307, '/next').method, 'POST');
  });

  it('keeps a HEAD a HEAD on 303', () => {
    assert.equal(redirectedHop(hop('HEAD'), 303, '/next').method, 'HEAD');
  });

  it('keeps only the cross-origin-safe headers on a redirect to another origin', () => {
    const headers = { accept: 'text/plain', 'user-agent': 'G', authorization: 'Bearer t', 'x-service-user-id': 'u1' };
    assert.deepEqual(redirectedHop(hop('GET', headers), 302, 'https://b.test/').headers, { accept: 'text/plain', 'user-agent': 'G' });
    assert.deepEqual(redirectedHop(hop('GET', headers), 302, 'http://a.test/start').headers, { accept: 'text/plain', 'user-agent': 'G' });
    assert.deepEqual(redirectedHop(hop('GET', headers), 302, '/elsewhere').headers, headers);
  });

  it('refuses a location that is not a URL', () => {
    assert.throws(
      () => redirectedHop(hop('GET'), 302, 'http://[::1'),
      (error: unknown) => error instanceof OutboundRefusal && error.reason === 'invalid_url' && error.url === 'https://a.test/start',
    );
  });
});

describe('callerHeaders', () => {
  it('lower-cases names, drops the headers the client sets itself and adds the defaults', () => {
    const headers = callerHeaders(
      { headers: { Authorization: 'Bearer t', Host: 'x', Cookie: 'c=1' }, accept: ['application/json', 'text/*'] },
      'UA',
    );
    assert.deepEqual(headers, { authorization: 'Bearer t', 'user-agent': 'UA', accept: 'application/json, text/*' });
  });

  it('keeps the caller’s own user agent and accept header', () => {
    const headers = callerHeaders({ headers: { 'User-Agent': 'mine', Accept: '*/*' }, accept: ['application/json'] }, 'UA');
    assert.deepEqual(headers, { 'user-agent': 'mine', accept: '*/*' });
  });
});
