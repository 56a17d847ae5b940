// Every operation that declares Idempotency-Key, retried after its process died between its write and
// the stored answer (decision S95). The state such a death leaves is made here: the call runs to its
// end, then its key is put back in progress, without an answer, its lease run out. The retry must take
// the key over, find what the first try wrote and answer with it, never writing it twice. Creates find
// their resource by the bound id; a review finds its answer kept with the decision; saves are
// naturally idempotent (the same body sets the same state). The validation itself is killed for real,
// across processes, in validation/crash-retry.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { IdempotencyStore } from '../../src/cosmos/idempotency-store.js';
import type { IdempotencyRecord } from '../../src/ports/idempotency-keys.js';
import { writeFixture } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/harness.js';
import { auditTrail, validateInline } from '../support/history.js';

let server: TestServer;
let admin: string;
let keyCounter = 0;
const newKey = () => `takeover-${process.pid}-${Date.now()}-${(keyCounter += 1)}`;

before(async () => {
  // Every validation goes to review, so there is a decision to take.
  server = await startTestServer({ fixture: await writeFixture({ overrides: { acme: { workflow: { review_required: 'always' } } } }) });
  admin = await server.login('acme', 'admin');
});
after(() => server.close());

/** The key as a process that died right after its write leaves it: in progress, no answer, its lease run out. */
async function dieAfterWrite(key: string): Promise<void> {
  const item = server.cosmos.container('idempotency').item(IdempotencyStore.recordId(key), 'acme');
  const { resource } = await item.read<IdempotencyRecord>();
  assert.equal(resource?.state, 'completed', 'the first try ran to its end');
  await item.replace<IdempotencyRecord>({
    ...resource!,
    state: 'in_progress',
    response: null,
    owner: 'a-process-that-died',
    lease_until: new Date(0).toISOString(),
  });
}

/** The call, then its retry after the first try's process died: both answers. */
async function callTwice(path: string, body: object) {
  const key = newKey();
  const call = () => server.call(path, body, { token: admin, headers: { 'Idempotency-Key': key } });
  const first = await call();
  assert.equal(first.status, 200, first.text);
  await dieAfterWrite(key);
  const retry = await call();
  assert.equal(retry.status, 200, retry.text);
  assert.equal(retry.headers.get('idempotent-replayed'), null, 'taken over, not replayed');
  const replay = await call();
  assert.equal(replay.headers.get('idempotent-replayed'), 'true', 'the takeover stored its answer');
  assert.deepEqual(replay.body, retry.body);
  return { first: first.body, retry: retry.body };
}

const groups = async () =>
  (await server.call('/api/v1/sources', {}, { token: admin })).body.data as {
    group_id: string;
    name: string;
    files: { file_id: string }[];
  }[];

describe('a retry that takes over the key of a try that died after its write', () => {
  test('review decision: the decision it made, not a 409 and not a second decision', async () => {
    const validation = await validateInline(server, server.apiKeyBody('acme', 'user'));
    assert.equal(validation.review.state, 'pending_review');
    const { first, retry } = await callTwice(`/api/v1/history/${validation.validation_id}/review`, {
      action: 'approve',
      note: 'Checked against the handbook.',
    });
    assert.deepEqual(retry, first);
    assert.equal(retry.review.state, 'approved');
    assert.equal(retry.review.history.length, 1);
    const kinds = (await auditTrail(server, 'acme', { validation_id: validation.validation_id })).map((event) => event.kind);
    assert.deepEqual(kinds, ['validation_created', 'review_required', 'approved']);
  });

  test('source group create: the group it created, not a second one nor group_name_taken', async () => {
    const name = `Takeover ${newKey()}`;
    const { first, retry } = await callTwice('/api/v1/sources/group/save', { name, allowed_roles: ['hr'] });
    assert.deepEqual(retry, first);
    assert.deepEqual(
      (await groups()).filter((group) => group.name === name).map((group) => group.group_id),
      [first.group_id],
    );
  });

  test('source group save: the same state again', async () => {
    const created = await server.call('/api/v1/sources/group/save', { name: `Saved ${newKey()}` }, { token: admin });
    const { first, retry } = await callTwice('/api/v1/sources/group/save', {
      group_id: created.body.group_id,
      description: 'Policies of 2026',
    });
    assert.deepEqual({ ...retry, updated_at: null }, { ...first, updated_at: null });
  });

  test('source file upload URL: the file it added, listed once, its URL signed as before', async () => {
    const group = await server.call('/api/v1/sources/group/save', { name: `Files ${newKey()}` }, { token: admin });
    const { first, retry } = await callTwice('/api/v1/sources/upload-url', {
      group_id: group.body.group_id,
      file_name: 'handbook.txt',
      content_type: 'text/plain',
    });
    assert.deepEqual(retry, first);
    const files = (await groups()).find((g) => g.group_id === group.body.group_id)!.files;
    assert.deepEqual(
      files.map((file) => file.file_id),
      [first.file_id],
    );
  });

  test('template upload URL: the template it created, not a second one', async () => {
    const name = `Template ${newKey()}`;
    const { first, retry } = await callTwice('/api/v1/templates/upload-url', {
      name,
      file_name: 'letter.md',
      content_type: 'text/markdown',
    });
    assert.deepEqual(retry, first);
    const templates = (await server.call('/api/v1/templates', {}, { token: admin })).body.data as { template_id: string; name: string }[];
    assert.deepEqual(
      templates.filter((template) => template.name === name).map((template) => template.template_id),
      [first.template_id],
    );
  });

  test('user create and update: the user it created, not email_taken; the same state again', async () => {
    const email = `${newKey()}@acme.test`;
    const created = await callTwice('/api/v1/saas/users/save', { email, role: 'viewer', name: 'Tara Takeover' });
    assert.deepEqual(created.retry, created.first);
    const users = (await server.call('/api/v1/saas/users', { limit: 100 }, { token: admin })).body.data as {
      user_id: string;
      email: string;
    }[];
    assert.deepEqual(
      users.filter((user) => user.email === email).map((user) => user.user_id),
      [created.first.user_id],
    );
    const updated = await callTwice('/api/v1/saas/users/save', { user_id: created.first.user_id, role: 'user' });
    assert.equal(updated.retry.role, 'user');
    assert.deepEqual({ ...updated.retry, updated_at: null }, { ...updated.first, updated_at: null });
  });
});
