// The account export (section 4.7, decision row 37) through HTTP, opened with yauzl: every file,
// its record count and SHA-256 against the manifest and against the store; no password hash or
// secret of the tenant file anywhere; another tenant's export holds none of it; a client that goes
// away stops the reading.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { AuditStore } from '../../src/cosmos/audit-store.js';
import { UserStore } from '../../src/cosmos/user-store.js';
import { entriesOfEveryKind, seedChain, tenantsOf } from '../support/audit.js';
import { writeFixture } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/harness.js';
import { cloneHistory, type Seeded, seedTenant, sha256 } from './seed.js';
import { jsonLines, readZip, type ZipEntry } from './zip-reader.js';

const webhookToken = 'webhook-bearer-token-not-for-export';
const signingSecret = `whsec_${Buffer.from('thirty-two-bytes-of-signing-key!').toString('base64')}`;
const stripeCustomer = 'cus_ExportMustNotShow01';
const endpointHeader = 'endpoint-credential-not-for-export';

let server: TestServer;
let admin: string;
let seeded: Seeded;

before(async () => {
  const fixture = await writeFixture({
    overrides: {
      acme: {
        // Configured but off: the test sends nothing beyond loopback.
        webhook: {
          enabled: false,
          url: 'https://hooks.acme.example/groundcheck',
          bearer_token: webhookToken,
          signing_secret: signingSecret,
        },
        billing: { stripe_customer_id: stripeCustomer },
        outbound: { endpoint_credentials: [{ url: 'https://hr.acme.example/api', headers: { 'X-Api-Token': endpointHeader } }] },
      },
    },
  });
  server = await startTestServer({ fixture });
  admin = await server.login('acme', 'admin');
  const created = await server.call(
    '/api/v1/saas/users/save',
    { email: 'exported.user@acme.test', role: 'user', password: 'marble-canyon-sparrow-7' },
    { token: admin },
  );
  assert.equal(created.status, 200, created.text);
  seeded = await seedTenant(server, admin);
  // Across page boundaries (500 records a page): 1100 more history records, 1200 more audit events.
  await cloneHistory(server.cosmos.container('history'), 'acme', seeded.validationIds[0]!, 1100);
  const audit = new AuditStore(server.cosmos.container('audit'));
  // The validations' own events are written through their outbox: seed after them.
  for (let waited = 0; ((await audit.readHead('acme'))?.sequence ?? 0) < 2 && waited < 10_000; waited += 50) await sleep(50);
  const entries = entriesOfEveryKind();
  await seedChain(audit, tenantsOf(server.fixture).acme!, 1200, (i) => ({
    entry: entries[i % entries.length]!,
    at: new Date(Date.now() - 1000 + i),
  }));
});
after(() => server.close());

async function exportOf(token: string): Promise<{ headers: Headers; entries: ZipEntry[] }> {
  const response = await fetch(`${server.url}/api/v1/account/export`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  assert.equal(response.status, 200, await response.clone().text());
  return { headers: response.headers, entries: await readZip(Buffer.from(await response.arrayBuffer())) };
}

const byName = (entries: ZipEntry[]) => new Map(entries.map((entry) => [entry.name, entry]));

describe("acme's export", () => {
  let entries: ZipEntry[];
  let headers: Headers;
  let manifest: any;
  before(async () => {
    ({ entries, headers } = await exportOf(admin));
    manifest = JSON.parse(entries.at(-1)!.bytes.toString('utf8'));
  });

  test('is a ZIP attachment of the five JSON Lines files, the manifest last', () => {
    assert.equal(headers.get('content-type'), 'application/zip');
    assert.match(headers.get('content-disposition')!, /^attachment; filename="?account-acme-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.zip"?$/);
    assert.deepEqual(
      entries.map((e) => e.name),
      ['users.jsonl', 'source_groups.jsonl', 'templates.jsonl', 'history.jsonl', 'audit_events.jsonl', 'manifest.json'],
    );
  });

  test('the manifest names every file with its count, size and SHA-256', () => {
    assert.deepEqual(Object.keys(manifest), ['schema_version', 'customer_id', 'generated_at', 'tenant', 'files']);
    assert.ok(Math.abs(Date.parse(manifest.generated_at) - Date.now()) < 60_000);
    assert.equal(manifest.schema_version, '1.0');
    assert.equal(manifest.customer_id, 'acme');
    const files = byName(entries);
    assert.deepEqual(
      manifest.files.map((f: { name: string }) => f.name),
      entries.slice(0, -1).map((e) => e.name),
    );
    for (const file of manifest.files) {
      const bytes = files.get(file.name)!.bytes;
      assert.equal(file.sha256, sha256(bytes), file.name);
      assert.equal(file.bytes, bytes.length, file.name);
      assert.equal(file.records, jsonLines(bytes).length, file.name);
    }
  });

  test('every file holds what the store holds, in the shape the API returns', async () => {
    const files = byName(entries);
    const users = jsonLines(files.get('users.jsonl')!.bytes);
    const stored = new UserStore(server.cosmos.container('users'));
    const emails = users.map((u) => u.email);
    assert.deepEqual(emails, [...emails].sort());
    assert.deepEqual(emails.sort(), ['admin@acme.test', 'exported.user@acme.test', 'user@acme.test', 'viewer@acme.test']);
    for (const user of users) {
      const record = (await stored.get('acme', user.user_id))!;
      assert.deepEqual(Object.keys(user).sort(), [
        'created_at',
        'data_access_roles',
        'email',
        'last_login_at',
        'name',
        'role',
        'status',
        'updated_at',
        'user_id',
      ]);
      assert.deepEqual([user.email, user.role, user.status], [record.email, record.role, record.status]);
    }

    const [group] = jsonLines(files.get('source_groups.jsonl')!.bytes);
    assert.equal(group.group_id, seeded.groupId);
    assert.deepEqual([group.files.length, group.files[0].sha256], [1, seeded.fileSha256]);
    const [template] = jsonLines(files.get('templates.jsonl')!.bytes);
    assert.deepEqual([template.template_id, template.file.sha256], [seeded.templateId, seeded.templateSha256]);

    const history = jsonLines(files.get('history.jsonl')!.bytes);
    const { resources: storedIds } = await server.cosmos
      .container('history')
      .items.query<string>(
        {
          query: 'SELECT VALUE c.id FROM c WHERE c.customer_id = @cid AND c.record = @record',
          parameters: [
            { name: '@cid', value: 'acme' },
            { name: '@record', value: 'validation' },
          ],
        },
        { partitionKey: 'acme' },
      )
      .fetchAll();
    assert.equal(history.length, 1102);
    assert.deepEqual(history.map((r) => r.validation_id).sort(), storedIds.sort());
    for (const id of seeded.validationIds) assert.ok(history.some((r) => r.validation_id === id));
    assert.ok(history.every((r) => !('outbox' in r) && !('ttl' in r) && !('customer_id' in r) && !('_etag' in r)));

    const events = jsonLines(files.get('audit_events.jsonl')!.bytes);
    const head = await new AuditStore(server.cosmos.container('audit')).readHead('acme');
    assert.equal(events.length, head!.sequence);
    assert.deepEqual(
      events.map((e) => e.sequence),
      events.map((_, i) => i + 1),
    );
    for (let i = 1; i < events.length; i += 1) assert.equal(events[i].prev_hash, events[i - 1].hash);
  });

  test("the tenant's settings are there without any secret, and no password hash is anywhere", () => {
    const tenant = manifest.tenant;
    assert.deepEqual(tenant.features, { document_templates: true, audit_trail: true });
    assert.deepEqual(tenant.webhook, {
      enabled: false,
      url: 'https://hooks.acme.example/groundcheck',
      include_successful: false,
      bearer_token_set: true,
      signing_secret_set: true,
    });
    assert.deepEqual(tenant.outbound.endpoints_with_credentials, ['https://hr.acme.example/api']);
    assert.equal(tenant.billing_configured, true);
    assert.deepEqual(
      tenant.api_keys.map((k: { role: string }) => k.role),
      ['viewer', 'user', 'admin'],
    );
    const everything = Buffer.concat(entries.map((e) => e.bytes)).toString('utf8');
    const keys = server.fixture.apiKeys.acme!;
    const secrets = [webhookToken, signingSecret, stripeCustomer, endpointHeader, 'scrypt$', 'password', ...Object.values(keys)];
    for (const key of Object.values(keys)) secrets.push(sha256(key));
    for (const secret of secrets) assert.ok(!everything.includes(secret), `the export contains ${secret.slice(0, 12)}…`);
  });
});

test("another tenant's export holds only its own data, and no audit file without the audit_trail feature", async () => {
  const { entries } = await exportOf(await server.login('globex', 'admin'));
  assert.deepEqual(
    entries.map((e) => e.name),
    ['users.jsonl', 'source_groups.jsonl', 'templates.jsonl', 'history.jsonl', 'manifest.json'],
  );
  const files = byName(entries);
  assert.deepEqual(
    jsonLines(files.get('users.jsonl')!.bytes)
      .map((u) => u.email)
      .sort(),
    ['admin@globex.test', 'user@globex.test', 'viewer@globex.test'],
  );
  for (const name of ['source_groups.jsonl', 'templates.jsonl', 'history.jsonl']) assert.equal(files.get(name)!.bytes.length, 0, name);
  const manifest = JSON.parse(files.get('manifest.json')!.bytes.toString('utf8'));
  assert.deepEqual([manifest.customer_id, manifest.tenant.billing_configured], ['globex', false]);
  assert.ok(
    !Buffer.concat(entries.map((e) => e.bytes))
      .toString('utf8')
      .includes('acme'),
  );
});

test('a client that disconnects stops the export: no further page is read', async () => {
  // Count the history pages the export reads, and hold the second until the client is gone.
  const items = server.cosmos.container('history').items;
  const query = items.query.bind(items);
  let pagesRead = 0;
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  items.query = ((...args: Parameters<typeof query>) => {
    const iterator = query(...args);
    if (!JSON.stringify(args[0]).includes('@now')) return iterator;
    const fetchNext = iterator.fetchNext.bind(iterator);
    iterator.fetchNext = async () => {
      pagesRead += 1;
      if (pagesRead === 2) await held;
      return fetchNext();
    };
    return iterator;
  }) as typeof items.query;
  try {
    const aborter = new AbortController();
    const response = await fetch(`${server.url}/api/v1/account/export`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
      signal: aborter.signal,
    });
    assert.equal(response.status, 200);
    const reader = response.body!.getReader();
    await reader.read();
    for (let waited = 0; pagesRead < 2 && waited < 10_000; waited += 20) await sleep(20);
    assert.equal(pagesRead, 2, 'the export reached the second page of history');
    aborter.abort();
    await sleep(200);
    release();
    await sleep(500);
    assert.equal(pagesRead, 2, 'no page read after the client went away (the history has three)');
    assert.equal((await server.call('/api/v1/saas/users', {}, { token: admin })).status, 200, 'the server serves on');
  } finally {
    items.query = query;
    release();
  }
});
