import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { defaultThresholds } from '../../src/engine/index.js';
import { loadTenantFile, TenantFileError } from '../../src/tenants/tenant-file.js';

const options = { historyTtlDays: 90, region: 'westeurope', env: { HOOK_TOKEN: 'a-webhook-token-of-some-length' } };
const minimal = { customer_id: 'acme', name: 'Acme', auth: { local: { users: [] } } };

function write(content: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'gc-tenant-file-')), 'tenants.yaml');
  writeFileSync(file, typeof content === 'string' ? content : stringify(content));
  return file;
}

function rejects(content: unknown, pointer: string, reason: RegExp) {
  const file = write(content);
  assert.throws(
    () => loadTenantFile(file, options),
    (error: Error) => {
      assert.ok(error instanceof TenantFileError);
      assert.ok(error.message.includes(file), 'names the file');
      assert.ok(error.message.includes(` at ${pointer}:`), `names ${pointer}: ${error.message}`);
      assert.match(error.message, reason);
      return true;
    },
  );
}

describe('the tenant file', () => {
  test('the shipped example is valid and defines an admin, a user and a viewer', () => {
    const [demo] = loadTenantFile(fileURLToPath(new URL('../../tenants.example.yaml', import.meta.url)), options);
    assert.equal(demo!.customerId, 'demo');
    assert.deepEqual(demo!.auth.local!.users.map((u) => u.role).sort(), ['admin', 'user', 'viewer']);
    assert.deepEqual(demo!.features, { document_templates: true, audit_trail: true });
  });

  test('fills defaults from the specification', () => {
    const [tenant] = loadTenantFile(write({ tenants: [minimal] }), options);
    assert.equal(tenant!.auditRetentionDays, 365);
    assert.deepEqual(tenant!.rateLimit, { requests: 120, windowSeconds: 60 });
    assert.deepEqual(tenant!.webhook, { enabled: false, url: null, bearerToken: null, signingSecret: null, includeSuccessful: false });
    assert.equal(tenant!.workflow.reviewRequired, 'never');
    assert.equal(tenant!.region, 'westeurope');
    assert.deepEqual(tenant!.engineThresholds, defaultThresholds);
  });

  test('engine thresholds override the defaults one by one', () => {
    const [tenant] = loadTenantFile(
      write({ tenants: [{ ...minimal, engine: { high_confidence: 0.9, unsupported_severity: 'low' } }] }),
      options,
    );
    assert.deepEqual(tenant!.engineThresholds, { ...defaultThresholds, highConfidence: 0.9, unsupportedSeverity: 'low' });
  });

  test('reads ${NAME} from the environment', () => {
    const [tenant] = loadTenantFile(
      write({ tenants: [{ ...minimal, webhook: { enabled: true, url: 'https://hooks.acme.test/x', bearer_token: '${HOOK_TOKEN}' } }] }),
      options,
    );
    assert.equal(tenant!.webhook.bearerToken, 'a-webhook-token-of-some-length');
  });

  test('reports a missing file and broken YAML', () => {
    assert.throws(
      () => loadTenantFile('/nonexistent/tenants.yaml', options),
      /\/nonexistent\/tenants.yaml at \/: cannot be read \(ENOENT\)/,
    );
    rejects('tenants: [ {', '/', /not valid YAML/);
  });

  test('reports the place and the reason of each mistake', () => {
    rejects({ tenants: [minimal, { ...minimal, customer_id: 'Bad Id' }] }, '/tenants/1/customer_id', /must match pattern/);
    rejects({ tenants: [{ ...minimal, colour: 'blue' }] }, '/tenants/0', /unknown property "colour"/);
    rejects(
      { tenants: [{ ...minimal, workflow: { review_required: 'sometimes' } }] },
      '/tenants/0/workflow/review_required',
      /never, always, when_issues/,
    );
    rejects({ tenants: [{ ...minimal, webhook: { enabled: true } }] }, '/tenants/0/webhook', /url/);
    rejects({ tenants: [{ ...minimal, api_keys: [{ id: 'short', role: 'user', sha256: 'x' }] }] }, '/tenants/0/api_keys/0/id', /pattern/);
    rejects({ tenants: [{ ...minimal, engine: { supported_score: 2 } }] }, '/tenants/0/engine/supported_score', /<= 1/);
    rejects(
      { tenants: [{ ...minimal, engine: { high_confidence: 0.4, medium_confidence: 0.6 } }] },
      '/tenants/0/engine/high_confidence',
      /not be below medium_confidence/,
    );
    rejects(
      { tenants: [{ ...minimal, rate_limit: { requests: 10, window_seconds: 60, per_principal: 11 } }] },
      '/tenants/0/rate_limit/per_principal',
      /not be above the tenant's requests/,
    );
    rejects({ tenants: [minimal, minimal] }, '/tenants/1/customer_id', /duplicate customer_id "acme"/);
    rejects(
      { tenants: [{ ...minimal, audit_retention_days: 90 }] },
      '/tenants/0/audit_retention_days',
      /longer than the history retention/,
    );
    rejects(
      { tenants: [{ ...minimal, webhook: { enabled: true, url: 'https://h.test', bearer_token: '${MISSING_TOKEN}' } }] },
      '/tenants/0/webhook/bearer_token',
      /MISSING_TOKEN is not set/,
    );
    const oidc = { issuer: 'https://idp.test', audience: 'api', jwks_uri: 'https://idp.test/keys', role_mapping: { A: 'admin' } };
    rejects(
      {
        tenants: [
          { ...minimal, auth: { oidc } },
          { ...minimal, customer_id: 'other', auth: { oidc } },
        ],
      },
      '/tenants/1/auth/oidc',
      /same issuer and audience/,
    );
  });
});

test("the tenant file's TypeScript type is generated from its JSON Schema, and up to date", () => {
  const out = mkdtempSync(join(tmpdir(), 'gc-tenant-type-'));
  execFileSync(process.execPath, [fileURLToPath(new URL('../../../scripts/generate-tenant-file-type.mjs', import.meta.url)), out]);
  const committed = fileURLToPath(new URL('../../src/tenants/generated/tenant-file.ts', import.meta.url));
  assert.equal(
    readFileSync(committed, 'utf8'),
    readFileSync(join(out, 'tenant-file.ts'), 'utf8'),
    'server/src/tenants/generated/tenant-file.ts is stale: node scripts/generate-tenant-file-type.mjs',
  );
});
