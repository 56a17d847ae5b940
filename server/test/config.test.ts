import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.js';

test('defaults need no environment at all', () => {
  const config = loadConfig({});
  assert.equal(config.port, 3000);
  assert.equal(config.cosmos, null);
  assert.equal(config.historyTtlDays, 90);
  assert.match(config.tenantsFile, /tenants\.example\.yaml$/);
});

test('each bad variable is named with the reason', () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ PORT: 'eighty' }, /PORT must be a whole number/],
    [{ PORT: '70000' }, /PORT must be between 0 and 65535/],
    [{ COSMOS_KEY: 'abc' }, /COSMOS_ENDPOINT must be set together with COSMOS_KEY/],
    [{ COSMOS_ENDPOINT: 'acme', COSMOS_KEY: 'abc' }, /COSMOS_ENDPOINT must be an http\(s\) URL/],
    [{ HISTORY_TTL_DAYS: '0' }, /HISTORY_TTL_DAYS must be between 1 and 3650/],
    [{ JWT_SECRET: 'short' }, /JWT_SECRET must be at least 32 characters/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
    [{ AZURE_STORAGE_KEY: 'a2V5' }, /AZURE_STORAGE_ACCOUNT must be set together with AZURE_STORAGE_KEY/],
    [{ AZURE_STORAGE_CONNECTION_STRING: 'x', AZURE_STORAGE_ACCOUNT: 'acme', AZURE_STORAGE_KEY: 'a2V5' }, /must not be set together/],
    [
      { AZURE_STORAGE_ACCOUNT: 'acme', AZURE_STORAGE_KEY: 'a2V5', AZURE_STORAGE_ENDPOINT: 'acme.blob' },
      /AZURE_STORAGE_ENDPOINT must be an http\(s\) URL/,
    ],
    [{ TRUST_PROXY: 'true' }, /TRUST_PROXY must be the number of proxies in front of the server or their addresses/],
    [{ TRUST_PROXY: '0' }, /TRUST_PROXY must be a hop count from 1 to 10/],
    [{ TRUST_PROXY: 'not-an-address' }, /TRUST_PROXY must be a hop count or a comma-separated list/],
    [
      { HTTP_HEADERS_TIMEOUT_MS: '60000', HTTP_REQUEST_TIMEOUT_MS: '30000' },
      /HTTP_HEADERS_TIMEOUT_MS must not be longer than HTTP_REQUEST_TIMEOUT_MS/,
    ],
  ];
  for (const [env, message] of cases)
    assert.throws(
      () => loadConfig(env),
      (e: Error) => e instanceof ConfigError && message.test(e.message),
    );
});

test('outside the embedded emulators, the demo tenant file and a per-process signing key are refused', () => {
  const cosmos = { COSMOS_ENDPOINT: 'https://acme.documents.azure.com', COSMOS_KEY: 'a2V5' };
  const storage = { AZURE_STORAGE_ACCOUNT: 'acme', AZURE_STORAGE_KEY: 'a2V5' };
  const secret = 'x'.repeat(40);
  const refused: [Record<string, string>, RegExp][] = [
    [{ ...cosmos, JWT_SECRET: secret }, /TENANTS_FILE must be set when COSMOS_ENDPOINT is configured/],
    [{ ...storage, JWT_SECRET: secret }, /TENANTS_FILE must be set when a storage account is configured/],
    [{ ...cosmos, JWT_SECRET: secret, TENANTS_FILE: 'server/tenants.example.yaml' }, /must not be the example tenant file/],
    [{ ...cosmos, TENANTS_FILE: '/etc/groundcheck/tenants.yaml' }, /JWT_SECRET must be set when COSMOS_ENDPOINT is configured/],
  ];
  for (const [env, message] of refused)
    assert.throws(
      () => loadConfig(env),
      (e: Error) => e instanceof ConfigError && message.test(e.message),
    );
  assert.ok(loadConfig({ ...cosmos, JWT_SECRET: secret, TENANTS_FILE: '/etc/groundcheck/tenants.yaml' }).cosmos);
});

test('an account without a key signs in with the Azure identity', () => {
  const real = { JWT_SECRET: 'x'.repeat(40), TENANTS_FILE: '/etc/groundcheck/tenants.yaml' };
  const config = loadConfig({ ...real, COSMOS_ENDPOINT: 'https://acme.documents.azure.com', AZURE_STORAGE_ACCOUNT: 'acme' });
  assert.deepEqual(config.cosmos, { endpoint: 'https://acme.documents.azure.com', key: null });
  assert.deepEqual(config.storage, { accountName: 'acme', accountKey: null });
  // Still real accounts: the safe defaults hold.
  assert.throws(() => loadConfig({ AZURE_STORAGE_ACCOUNT: 'acme', JWT_SECRET: 'x'.repeat(40) }), /TENANTS_FILE must be set/);
});

test('a secret is never echoed in a configuration error', () => {
  assert.throws(
    () => loadConfig({ JWT_SECRET: 'hunter2' }),
    (e: Error) => !e.message.includes('hunter2'),
  );
});

test("TRUST_PROXY takes a hop count or the proxies' addresses", () => {
  assert.equal(loadConfig({}).trustProxy, false);
  assert.equal(loadConfig({ TRUST_PROXY: '2' }).trustProxy, 2);
  assert.deepEqual(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,fd00::1' }).trustProxy, ['loopback', '10.0.0.0/8', 'fd00::1']);
});
