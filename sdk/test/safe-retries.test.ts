// Every SDK method that changes something, retried after its first answer was lost: a proxy in front
// of the reference server lets the server act, then drops the connection before the answer reaches
// the SDK. The SDK retries with the same Idempotency-Key, the server replays its first answer, and
// the call resolves with what a lossless call would have returned: one group, one user, one review.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { email, password, writeFixture } from '../../server/test/support/fixtures.js';
import type { TestServer } from '../../server/test/support/harness.js';
import { AuthenticationError, ConnectionError, createClient, type GroundcheckClient, NotFoundError } from '../src/index.js';
import { type Loopback, startLoopback } from './support/loopback.js';
import { startReferenceServer } from './support/reference-server.js';

let server: TestServer;
let direct: GroundcheckClient;
let proxy: Loopback;
let lossy: GroundcheckClient;
/** Calls whose first answer was dropped, by Idempotency-Key. */
const dropped = new Set<string>();

before(async () => {
  // Validations with issues wait for a review.
  const fixture = await writeFixture({ overrides: { acme: { workflow: { review_required: 'when_issues' } } } });
  ({ server, admin: direct } = await startReferenceServer({ fixture }));
  proxy = await startLoopback(async (incoming, res) => {
    const headers = Object.fromEntries(
      ['authorization', 'content-type', 'idempotency-key'].flatMap((name) =>
        incoming.headers[name] ? [[name, String(incoming.headers[name])]] : [],
      ),
    );
    const upstream = await fetch(server.url + incoming.path, { method: incoming.method, headers, body: incoming.body || undefined });
    const text = await upstream.text();
    // The first answer of each call is lost: calls are told apart by their key (the account
    // deletion, which carries none, by its path).
    const key = incoming.headers['idempotency-key'] ?? (incoming.path === '/api/v1/account/delete' ? incoming.path : undefined);
    if (typeof key === 'string' && !dropped.has(key)) {
      dropped.add(key);
      return void res.socket?.destroy();
    }
    const forwarded: Record<string, string> = {};
    upstream.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'connection') forwarded[name] = value;
    });
    res.writeHead(upstream.status, forwarded).end(text);
  });
  const { token } = await createClient({ baseUrl: server.url }).auth.login({
    email: email('acme', 'admin'),
    password: password('acme', 'admin'),
    customer_id: 'acme',
  });
  lossy = createClient({ baseUrl: proxy.url, token, maxRetries: 2 });
});
after(async () => {
  await proxy.close();
  await server.close();
});

/** The proxy's requests for one call: the lost first attempt and the replayed retry, with one key. */
function lastCall(path: string) {
  const attempts = proxy.requests.filter((r) => r.path === path);
  const key = attempts.at(-1)!.headers['idempotency-key'];
  const same = attempts.filter((r) => r.headers['idempotency-key'] === key);
  assert.ok(typeof key === 'string' && key.length > 0, `${path} carries an Idempotency-Key`);
  assert.equal(same.length, 2, `${path}: the lost attempt and one retry with the same key`);
}

describe('mutating calls whose first answer is lost', () => {
  it('source groups and files: created once, deleted once', async () => {
    const name = `Handbooks ${Date.now()}`;
    const group = await lossy.sources.saveGroup({ name });
    lastCall('/api/v1/sources/group/save');
    assert.equal(group.name, name);
    assert.equal(group.lastResponse.headers.get('idempotent-replayed'), 'true');
    assert.equal((await direct.sources.list()).data.filter((g) => g.name === name).length, 1);

    const bytes = new TextEncoder().encode('Refunds are paid within 14 days.');
    const target = await lossy.sources.getUploadUrl({
      group_id: group.group_id,
      file_name: 'refunds.txt',
      content_type: 'text/plain',
      size_bytes: bytes.length,
    });
    lastCall('/api/v1/sources/upload-url');
    assert.equal((await fetch(target.upload_url, { method: target.method, headers: target.headers, body: bytes })).status, 201);

    const file = await lossy.sources.deleteFile({ group_id: group.group_id, file_id: target.file_id });
    lastCall('/api/v1/sources/file/delete');
    assert.equal(file.deleted, true);
    const deleted = await lossy.sources.deleteGroup({ group_id: group.group_id });
    lastCall('/api/v1/sources/group/delete');
    assert.equal(deleted.deleted, true);
  });

  it('templates: upload URL, scan, save and delete', async () => {
    const bytes = new TextEncoder().encode('# Renewal for {{ customer }}\n');
    const target = await lossy.templates.getUploadUrl({
      name: 'Renewal',
      file_name: 'renewal.md',
      content_type: 'text/markdown',
      size_bytes: bytes.length,
    });
    lastCall('/api/v1/templates/upload-url');
    assert.equal((await fetch(target.upload_url, { method: target.method, headers: target.headers, body: bytes })).status, 201);
    const path = `/api/v1/templates/${target.template_id}`;
    const scanned = await lossy.templates.scan(target.template_id);
    lastCall(`${path}/scan`);
    assert.equal(scanned.status, 'scanned');
    const saved = await lossy.templates.save(target.template_id, {
      active: true,
      schema: { fields: [{ name: 'customer', type: 'string', required: true }] },
    });
    lastCall(`${path}/save`);
    assert.equal(saved.active, true);
    const deleted = await lossy.templates.delete(target.template_id);
    lastCall(`${path}/delete`);
    assert.equal(deleted.deleted, true);
  });

  it('a review: applied once, not refused as a second transition', async () => {
    const validation = await direct.validate({
      mode: 'validate',
      question: 'How long is the warranty?',
      chatbot_response: 'The warranty lasts five years.',
      inline_text: 'Every appliance carries a two-year warranty.',
    });
    assert.ok(validation.issue_count > 0);
    const record = await lossy.history.review(validation.validation_id, { action: 'approve', note: 'Checked against the handbook.' });
    lastCall(`/api/v1/history/${validation.validation_id}/review`);
    assert.equal(record.review.state, 'approved');
    assert.equal(record.review.history.filter((entry) => entry.action === 'approve').length, 1);
  });

  it('users: created once, deleted once', async () => {
    const email = `ana.${Date.now()}@acme.test`;
    const user = await lossy.saas.users.save({ email, name: 'Ana', role: 'user', password: 'a long enough passphrase' });
    lastCall('/api/v1/saas/users/save');
    assert.equal(user.email, email);
    assert.equal((await direct.saas.users.list({ limit: 100 })).data.filter((u) => u.email === email).length, 1);
    const deleted = await lossy.saas.users.delete({ user_id: user.user_id });
    lastCall('/api/v1/saas/users/delete');
    assert.equal(deleted.deleted, true);
  });

  it('the billing portal: the same answer as without the loss', async () => {
    const error = await lossy.saas.billingPortal().catch((e: unknown) => e);
    lastCall('/api/v1/saas/billing-portal');
    assert.ok(error instanceof NotFoundError, String(error));
    assert.equal(error.code, 'billing_not_configured');
  });

  it('the account deletion is sent once, never retried: a retry could only be refused', async () => {
    const error = await lossy.account.delete({ confirmation: 'DELETE acme' }).catch((e: unknown) => e);
    assert.ok(error instanceof ConnectionError, String(error));
    assert.equal(proxy.requests.filter((r) => r.path === '/api/v1/account/delete').length, 1);
    // It was accepted: the tenant's credentials no longer work.
    assert.ok((await direct.auth.me().catch((e: unknown) => e)) instanceof AuthenticationError);
  });
});
