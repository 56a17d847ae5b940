// Templates across tenants, the 200-template cap, and an upload that never arrives.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../src/lib/clock.js';
import { writeFixture } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/harness.js';

const clock = new ManualClock(new Date());
let server: TestServer;
let acme: string;
let tiny: string;

before(async () => {
  // "tiny" gets the feature and a normal rate limit here, to be a second tenant with templates.
  const fixture = await writeFixture({
    overrides: {
      tiny: { features: { document_templates: true, audit_trail: false }, rate_limit: { requests: 100000, window_seconds: 60 } },
    },
  });
  server = await startTestServer({ fixture, clock });
  acme = await server.login('acme', 'admin');
  tiny = await server.login('tiny', 'admin');
});
after(() => server.close());

const create = (token: string, name = 'T') =>
  server.call('/api/v1/templates/upload-url', { name, file_name: 't.md', content_type: 'text/markdown' }, { token });

test("another tenant's template id answers 404 on every template operation, and nothing changes", async () => {
  const id = (await create(acme, 'acme only')).body.template_id;
  for (const [path, body] of [
    [`/api/v1/templates/${id}`, {}],
    [`/api/v1/templates/${id}/scan`, {}],
    [`/api/v1/templates/${id}/save`, { name: 'taken over' }],
    [`/api/v1/templates/${id}/delete`, {}],
  ] as const) {
    const reply = await server.call(path, body, { token: tiny });
    assert.deepEqual([reply.status, reply.body.code], [404, 'not_found'], path);
  }
  assert.ok(
    !(await server.call('/api/v1/templates', {}, { token: tiny })).body.data.some((t: { template_id: string }) => t.template_id === id),
  );
  const own = await server.call(`/api/v1/templates/${id}`, {}, { token: acme });
  assert.equal(own.body.name, 'acme only');
});

test('no file long after the upload URL expired: rejected as upload_expired', async () => {
  const id = (await create(acme, 'never uploaded')).body.template_id;
  clock.advance(15 * 60_000);
  assert.equal((await server.call(`/api/v1/templates/${id}`, {}, { token: acme })).body.status, 'awaiting_upload');
  clock.advance(6 * 60_000);
  const expired = await server.call(`/api/v1/templates/${id}`, {}, { token: acme });
  assert.deepEqual([expired.body.status, expired.body.rejection_reason], ['rejected', 'upload_expired']);
  clock.set(new Date());
});

test('a tenant holds at most 200 templates: the 201st answers 409 limit_reached', async () => {
  const existing = (await server.call('/api/v1/templates', {}, { token: tiny })).body.data.length;
  for (let i = existing; i < 200; i += 1) assert.equal((await create(tiny, `t${i}`)).status, 200);
  const over = await create(tiny, 'one too many');
  assert.deepEqual([over.status, over.body.code], [409, 'limit_reached']);
  const listed = await server.call('/api/v1/templates', {}, { token: tiny });
  assert.equal(listed.body.data.length, 200);
  // Another tenant is not affected, and deleting one frees a place.
  assert.equal((await create(acme)).status, 200);
  assert.equal((await server.call(`/api/v1/templates/${listed.body.data[0].template_id}/delete`, {}, { token: tiny })).status, 200);
  assert.equal((await create(tiny, 'fits again')).status, 200);
});
