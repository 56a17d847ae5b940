// Address classification and the static URL checks, without opening any connection.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkAddress, classifyAddress, parseAllowlist } from '../../src/outbound/address-policy.js';
import { checkUrl } from '../../src/outbound/outbound-client.js';
import { OutboundRefusal, skippedSourceReason } from '../../src/outbound/outbound-refusal.js';

const refused: Array<[literal: string, range: string]> = [
  ['127.0.0.1', 'loopback'],
  ['127.8.9.10', 'loopback'],
  ['::1', 'loopback'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['0:0:0:0:0:ffff:7f00:1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::127.0.0.1', 'loopback'],
  ['::7f00:1', 'ipv4Compatible'],
  ['2130706433', 'loopback'],
  ['0177.0.0.1', 'loopback'],
  ['0x7f.1', 'loopback'],
  ['0x7f000001', 'loopback'],
  ['127.1', 'loopback'],
  ['0.0.0.0', 'unspecified'],
  ['::', 'unspecified'],
  ['10.0.0.1', 'private'],
  ['10.1', 'private'],
  ['172.16.5.4', 'private'],
  ['192.168.1.1', 'private'],
  ['::ffff:192.168.1.1', 'private'],
  ['100.64.0.1', 'carrierGradeNat'],
  ['169.254.1.1', 'linkLocal'],
  ['169.254.169.254', 'linkLocal'],
  ['::ffff:169.254.169.254', 'linkLocal'],
  ['fd00:ec2::254', 'uniqueLocal'],
  ['fe80::1', 'linkLocal'],
  ['fe80::1%eth0', 'linkLocal'],
  ['fc00::1', 'uniqueLocal'],
  ['fd12:3456::1', 'uniqueLocal'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['ff02::1', 'multicast'],
  ['255.255.255.255', 'broadcast'],
  ['192.0.2.1', 'reserved'],
  ['198.18.0.1', 'reserved'],
  ['240.0.0.1', 'reserved'],
  ['2001:db8::1', 'reserved'],
  ['64:ff9b::7f00:1', 'rfc6052'],
  ['::ffff:0:7f00:1', 'rfc6145'],
  ['2002:7f00:1::', '6to4'],
  ['2001::1', 'teredo'],
  ['fec0::1', 'deprecatedSiteLocal'],
  ['not-an-address', 'invalid'],
  ['1.2.3.4.5', 'invalid'],
];

const allowed = ['8.8.8.8', '1.1.1.1', '93.184.216.34', '::ffff:8.8.8.8', '2606:4700:4700::1111', '2a00:1450:4001:81b::200e'];

describe('classifyAddress', () => {
  for (const [literal, range] of refused) {
    it(`refuses ${literal} (${range})`, () => {
      const verdict = classifyAddress(literal);
      assert.equal(verdict.allowed, false);
      assert.equal(verdict.range, range);
    });
  }
  for (const literal of allowed) {
    it(`allows ${literal}`, () => {
      assert.deepEqual(classifyAddress(literal), { allowed: true, address: classifyAddress(literal).address, range: 'unicast' });
    });
  }
  it('names the IPv4 address that a mapped IPv6 address carries', () => {
    assert.equal(classifyAddress('::ffff:169.254.169.254').address, '169.254.169.254');
    assert.equal(classifyAddress('2130706433').address, '127.0.0.1');
  });
});

describe('checkAddress with an allowlist', () => {
  const allowlist = parseAllowlist([
    '127.0.0.1',
    '10.20.0.0/16',
    'Search.Internal.',
    '::ffff:192.168.7.0/120',
    '169.254.169.254',
    '0.0.0.0',
    'fd00:ec2::254',
  ]);

  it('opens listed addresses, ranges and host names', () => {
    assert.equal(checkAddress('127.0.0.1', 'anything', allowlist).allowed, true);
    assert.equal(checkAddress('::ffff:127.0.0.1', 'anything', allowlist).allowed, true);
    assert.equal(checkAddress('10.20.3.4', 'anything', allowlist).allowed, true);
    assert.equal(checkAddress('192.168.7.9', 'anything', allowlist).allowed, true);
    assert.equal(checkAddress('10.0.0.8', 'search.internal', allowlist).allowed, true);
  });

  it('keeps other addresses of the same ranges refused', () => {
    assert.equal(checkAddress('127.0.0.2', 'anything', allowlist).allowed, false);
    assert.equal(checkAddress('::1', 'anything', allowlist).allowed, false);
    assert.equal(checkAddress('10.21.0.1', 'anything', allowlist).allowed, false);
    assert.equal(checkAddress('10.0.0.8', 'search.internal.evil.test', allowlist).allowed, false);
  });

  it('never opens cloud metadata or unspecified addresses, whatever the allowlist says', () => {
    for (const address of ['169.254.169.254', '::ffff:169.254.169.254', 'fd00:ec2::254', '0.0.0.0', '::']) {
      assert.equal(checkAddress(address, 'search.internal', allowlist).allowed, false, address);
    }
  });

  it('refuses a malformed CIDR entry as a configuration error', () => {
    assert.throws(() => parseAllowlist(['10.0.0.0/99']));
  });
});

describe('checkUrl (static checks, no connection)', () => {
  const none = parseAllowlist([]);
  const reasonOf = (url: string, allowlist = none) => {
    try {
      checkUrl(new URL(url), allowlist);
      return 'passed';
    } catch (error) {
      assert.ok(error instanceof OutboundRefusal);
      return error.reason;
    }
  };

  it('refuses other schemes', () => {
    for (const url of ['ftp://example.com/', 'file:///etc/passwd', 'gopher://example.com/', 'data:text/plain,x', 'javascript:alert(1)']) {
      assert.equal(reasonOf(url), 'scheme_not_allowed', url);
    }
  });

  it('refuses credentials in the URL and does not echo the password', () => {
    assert.equal(reasonOf('https://user:secret@example.com/'), 'credentials_in_url');
    assert.equal(reasonOf('https://user@example.com/'), 'credentials_in_url');
    try {
      checkUrl(new URL('https://user:secret@example.com/'), none);
    } catch (error) {
      assert.ok(!(error as OutboundRefusal).url.includes('secret'));
    }
  });

  it('refuses literal hosts in every IPv4 and IPv6 spelling', () => {
    for (const host of [
      '127.0.0.1',
      '2130706433',
      '0177.0.0.1',
      '0x7f.1',
      '0x7f.0.0.0x1',
      '[::1]',
      '[::ffff:127.0.0.1]',
      '[::127.0.0.1]',
      '0.0.0.0',
      '169.254.169.254',
      '[::ffff:169.254.169.254]',
      '[fd00:ec2::254]',
      '%31%32%37.0.0.1',
    ]) {
      assert.equal(reasonOf(`http://${host}:8080/`), 'address_not_allowed', host);
    }
  });

  it('refuses metadata even when allowlisted, and passes public literals and host names to the connect-time check', () => {
    assert.equal(reasonOf('http://169.254.169.254/latest/meta-data/', parseAllowlist(['169.254.169.254'])), 'address_not_allowed');
    assert.equal(reasonOf('http://8.8.8.8/'), 'passed');
    assert.equal(reasonOf('https://example.com/'), 'passed');
  });
});

describe('skippedSourceReason', () => {
  it('maps refusals onto the contract reasons', () => {
    assert.equal(skippedSourceReason('address_not_allowed'), 'blocked_address');
    assert.equal(skippedSourceReason('credentials_in_url'), 'blocked_address');
    assert.equal(skippedSourceReason('too_large'), 'too_large');
    assert.equal(skippedSourceReason('unsupported_content_type'), 'unsupported_content');
    assert.equal(skippedSourceReason('timeout'), 'fetch_failed');
    assert.equal(skippedSourceReason('http_error'), 'fetch_failed');
  });
});
