// The tenant file's technical credentials for source endpoints: read by exact URL, secrets from the
// environment, and refused when they would replace a header the server sets itself, repeat a URL or
// carry a line break; no error message shows a secret.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { stringify } from 'yaml';
import { endpointUrlKey } from '../../src/tenants/tenant.js';
import { loadTenantFile, TenantFileError } from '../../src/tenants/tenant-file.js';

const secret = 'a-downstream-secret-0123456789';
const options = { historyTtlDays: 90, region: 'westeurope', env: { SEARCH_TOKEN: secret } };

function load(endpointCredentials: unknown) {
  const file = join(mkdtempSync(join(tmpdir(), 'gc-endpoint-credentials-')), 'tenants.yaml');
  writeFileSync(
    file,
    stringify({
      tenants: [
        { customer_id: 'acme', name: 'Acme', outbound: { endpoint_credentials: endpointCredentials }, auth: { local: { users: [] } } },
      ],
    }),
  );
  return () => loadTenantFile(file, options)[0]!;
}

function rejects(endpointCredentials: unknown, pointer: string, reason: RegExp) {
  assert.throws(load(endpointCredentials), (error: Error) => {
    assert.ok(error instanceof TenantFileError);
    assert.ok(error.message.includes(` at ${pointer}:`), error.message);
    assert.match(error.message, reason);
    assert.ok(!error.message.includes(secret));
    return true;
  });
}

describe('outbound.endpoint_credentials', () => {
  test('headers by exact endpoint URL, in normalised form, secrets read from the environment', () => {
    const tenant = load([{ url: 'https://Search.Example.com:443/a/../query?x=1', headers: { Authorization: 'Bearer ${SEARCH_TOKEN}' } }])();
    assert.deepEqual([...tenant.endpointCredentials!.keys()], ['https://search.example.com/query?x=1']);
    assert.deepEqual(tenant.endpointCredentials!.get(endpointUrlKey('https://search.example.com/query?x=1')), {
      Authorization: `Bearer ${secret}`,
    });
    assert.equal(tenant.endpointCredentials!.get(endpointUrlKey('https://search.example.com/query')), undefined);
  });

  test('none configured: an empty map', () => {
    assert.equal(load([])().endpointCredentials!.size, 0);
  });

  test('refuses reserved headers, repeated URLs, line breaks and malformed names', () => {
    const at = '/tenants/0/outbound/endpoint_credentials';
    rejects(
      [{ url: 'https://s.example/q', headers: { 'X-Service-User-Id': 'admin' } }],
      `${at}/0/headers/X-Service-User-Id`,
      /sets itself/,
    );
    rejects([{ url: 'https://s.example/q', headers: { Host: 'other.example' } }], `${at}/0/headers/Host`, /sets itself/);
    rejects(
      [
        { url: 'https://s.example/q', headers: { 'X-Api-Key': 'a' } },
        { url: 'https://S.example/q', headers: { 'X-Api-Key': 'b' } },
      ],
      `${at}/1/url`,
      /duplicate endpoint URL/,
    );
    rejects([{ url: 'https://s.example/q', headers: { 'X-Api-Key': `${secret}\r\nX-Evil: 1` } }], `${at}/0/headers/X-Api-Key`, /pattern/);
    rejects([{ url: 'https://s.example/q', headers: { 'Bad Name': 'a' } }], `${at}/0/headers`, /pattern/);
    rejects([{ url: 'ftp://s.example/q', headers: { 'X-Api-Key': 'a' } }], `${at}/0/url`, /pattern/);
  });
});
