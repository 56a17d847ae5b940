// Document templates over HTTP on loopback, with the file PUT straight to the embedded Azurite
// through the presigned URL: upload → checked on the next read → scan → save → activate → delete.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { docxType, makeRawDocx, splitPlaceholderParagraph } from '../sources/fixtures.js';
import { startTestServer, type TestServer } from '../support/harness.js';

const utf8 = (text: string) => new TextEncoder().encode(text);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let server: TestServer;
let admin: string;

before(async () => {
  server = await startTestServer();
  admin = await server.login('acme', 'admin');
});
after(() => server.close());

/** Asks for an upload URL and PUTs the bytes to it exactly as a client would. */
async function upload(bytes: Uint8Array, contentType: string, extra: Record<string, unknown> = {}): Promise<string> {
  const reply = await server.call(
    '/api/v1/templates/upload-url',
    { name: 'Answer', file_name: 'answer', content_type: contentType, size_bytes: bytes.length, ...extra },
    { token: admin },
  );
  assert.equal(reply.status, 200, reply.text);
  const { template_id, upload_url, method, headers } = reply.body;
  const put = await fetch(upload_url, { method, headers, body: new Uint8Array(bytes) });
  assert.equal(put.status, 201, await put.text());
  return template_id;
}

const call = (path: string, body: object = {}, token = admin) => server.call(path, body, { token });
const blobExists = async (id: string) => (await server.container.storage.forTenant('acme').getProperties(`templates/${id}`)) !== null;

describe('the template flow', () => {
  test('upload-url → PUT → get shows uploaded with the size and SHA-256 the server computed', async () => {
    const bytes = makeRawDocx(splitPlaceholderParagraph);
    const created = await call('/api/v1/templates/upload-url', {
      name: 'Welcome letter',
      description: 'Sent to new customers',
      file_name: 'welcome.docx',
      content_type: docxType,
      size_bytes: bytes.length,
    });
    assert.equal(created.status, 200, created.text);
    assert.match(created.body.template_id, /^tpl_/);
    assert.equal(created.body.method, 'PUT');
    assert.equal(created.body.headers['x-ms-blob-type'], 'BlockBlob');
    const id = created.body.template_id;

    const waiting = await call(`/api/v1/templates/${id}`);
    assert.equal(waiting.status, 200, waiting.text);
    assert.equal(waiting.body.status, 'awaiting_upload');
    assert.deepEqual(waiting.body.file, { name: 'welcome.docx', content_type: docxType, size_bytes: null, sha256: null });
    assert.equal((await call(`/api/v1/templates/${id}/scan`)).body.code, 'template_not_uploaded');

    const put = await fetch(created.body.upload_url, { method: 'PUT', headers: created.body.headers, body: new Uint8Array(bytes) });
    assert.equal(put.status, 201);
    const uploaded = await call(`/api/v1/templates/${id}`);
    assert.equal(uploaded.body.status, 'uploaded', uploaded.text);
    assert.equal(uploaded.body.file.size_bytes, bytes.length);
    assert.equal(uploaded.body.file.sha256, sha256(bytes));
    assert.equal(uploaded.body.name, 'Welcome letter');
    assert.equal(uploaded.body.description, 'Sent to new customers');
    assert.equal(uploaded.body.active, false);
    assert.equal(uploaded.body.rejection_reason, null);

    // Activating before a scan is refused.
    const early = await call(`/api/v1/templates/${id}/save`, { active: true });
    assert.deepEqual([early.status, early.body.code], [409, 'template_not_scanned']);

    const scanned = await call(`/api/v1/templates/${id}/scan`);
    assert.equal(scanned.status, 200, scanned.text);
    assert.equal(scanned.body.status, 'scanned');
    assert.deepEqual(scanned.body.placeholders, [{ name: 'customer_name', occurrences: 1 }]);
    assert.deepEqual(scanned.body.schema, { fields: [{ name: 'customer_name', type: 'string', required: true }] });

    const saved = await call(`/api/v1/templates/${id}/save`, {
      active: true,
      description: null,
      schema: { fields: [{ name: 'customer_name', type: 'string', required: true, description: 'Full name' }] },
    });
    assert.equal(saved.status, 200, saved.text);
    assert.equal(saved.body.active, true);
    assert.equal(saved.body.description, null);
    assert.equal(saved.body.name, 'Welcome letter');
    assert.equal(saved.body.schema.fields[0].description, 'Full name');

    // Scanning again resets the schema and keeps the active flag.
    const rescanned = await call(`/api/v1/templates/${id}/scan`);
    assert.deepEqual(rescanned.body.schema, { fields: [{ name: 'customer_name', type: 'string', required: true }] });
    assert.equal(rescanned.body.active, true);

    const listed = await call('/api/v1/templates');
    assert.equal(listed.status, 200);
    assert.ok(listed.body.data.some((t: { template_id: string; active: boolean }) => t.template_id === id && t.active));

    assert.equal(await blobExists(id), true);
    const deleted = await call(`/api/v1/templates/${id}/delete`);
    assert.deepEqual([deleted.status, deleted.body], [200, { template_id: id, deleted: true }]);
    assert.equal(await blobExists(id), false);
    assert.equal((await call(`/api/v1/templates/${id}`)).status, 404);
    assert.equal((await call(`/api/v1/templates/${id}/delete`)).status, 404);
  });

  test('HTML and Markdown templates: placeholders with and without spaces, repeats counted once', async () => {
    const html = await upload(utf8('<p>Dear {{ name }},</p><p>{{amount}} is due; {{name}}, pay by {{ due_date }}.</p>'), 'text/html');
    const markdown = await upload(utf8('# Hello {{name}}\n\nYour plan: **{{ plan.tier }}**\n'), 'text/markdown');
    const fromHtml = await call(`/api/v1/templates/${html}/scan`);
    assert.deepEqual(fromHtml.body.placeholders, [
      { name: 'name', occurrences: 2 },
      { name: 'amount', occurrences: 1 },
      { name: 'due_date', occurrences: 1 },
    ]);
    const fromMarkdown = await call(`/api/v1/templates/${markdown}/scan`);
    assert.deepEqual(
      fromMarkdown.body.schema.fields.map((f: { name: string }) => f.name),
      ['name', 'plan.tier'],
    );
    // The list shows both, newest first.
    const ids = (await call('/api/v1/templates')).body.data.map((t: { template_id: string }) => t.template_id);
    assert.ok(ids.indexOf(markdown) < ids.indexOf(html), ids.join());
  });

  test('save: a partial update; schema field names unique and each a placeholder', async () => {
    const id = await upload(utf8('{{a}} and {{b}}'), 'text/plain');
    const unscannedSchema = await call(`/api/v1/templates/${id}/save`, { schema: { fields: [] } });
    assert.deepEqual([unscannedSchema.status, unscannedSchema.body.code], [409, 'template_not_scanned']);
    const renamed = await call(`/api/v1/templates/${id}/save`, { name: 'Renamed' });
    assert.deepEqual([renamed.status, renamed.body.name, renamed.body.status], [200, 'Renamed', 'uploaded']);
    await call(`/api/v1/templates/${id}/scan`);
    const bad = await call(`/api/v1/templates/${id}/save`, {
      schema: {
        fields: [
          { name: 'a', type: 'string', required: true },
          { name: 'a', type: 'number', required: false },
          { name: 'c', type: 'date', required: true },
        ],
      },
    });
    assert.deepEqual([bad.status, bad.body.code], [400, 'invalid_request']);
    assert.deepEqual(
      bad.body.errors.map((e: { pointer: string }) => e.pointer),
      ['/schema/fields/1/name', '/schema/fields/2/name'],
    );
    const good = await call(`/api/v1/templates/${id}/save`, { schema: { fields: [{ name: 'b', type: 'number', required: false }] } });
    assert.equal(good.status, 200, good.text);
    assert.deepEqual(good.body.schema, { fields: [{ name: 'b', type: 'number', required: false }] });
    assert.equal(good.body.name, 'Renamed');
    const empty = await call(`/api/v1/templates/${id}/save`, {});
    assert.equal(empty.status, 400);
  });

  test('a file whose bytes do not match the declared type is rejected and its blob deleted', async () => {
    const id = await upload(utf8('just text, not a Word file'), docxType);
    assert.equal(await blobExists(id), true);
    const got = await call(`/api/v1/templates/${id}`);
    assert.equal(got.status, 200, got.text);
    assert.deepEqual([got.body.status, got.body.rejection_reason], ['rejected', 'content_mismatch']);
    assert.deepEqual([got.body.file.size_bytes, got.body.file.sha256], [null, null]);
    assert.equal(await blobExists(id), false);
    assert.equal((await call(`/api/v1/templates/${id}/scan`)).body.code, 'template_not_uploaded');
    assert.equal((await call(`/api/v1/templates/${id}/save`, { active: true })).body.code, 'template_not_scanned');
    assert.equal((await call(`/api/v1/templates/${id}/delete`)).status, 200);
  });

  test('a file of another size than declared is rejected', async () => {
    const reply = await call('/api/v1/templates/upload-url', {
      name: 'x',
      file_name: 'x.md',
      content_type: 'text/markdown',
      size_bytes: 5,
    });
    const put = await fetch(reply.body.upload_url, { method: 'PUT', headers: reply.body.headers, body: utf8('{{six}}') });
    assert.equal(put.status, 201);
    const listed = await call('/api/v1/templates');
    const template = listed.body.data.find((t: { template_id: string }) => t.template_id === reply.body.template_id);
    assert.deepEqual([template.status, template.rejection_reason], ['rejected', 'size_mismatch']);
    assert.equal(await blobExists(reply.body.template_id), false);
  });

  test('a file that is not a readable template: 409 template_scan_failed, the template stays uploaded', async () => {
    const zipHeaderOnly = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5, 6]);
    const id = await upload(zipHeaderOnly, docxType);
    const scan = await call(`/api/v1/templates/${id}/scan`);
    assert.deepEqual([scan.status, scan.body.code], [409, 'template_scan_failed']);
    assert.equal((await call(`/api/v1/templates/${id}`)).body.status, 'uploaded');
  });
});

describe('a file written again through the still-valid upload URL', () => {
  test('the scan checks the new bytes first, and scans them or rejects them', async () => {
    const created = await call('/api/v1/templates/upload-url', { name: 'Redo', file_name: 'redo.md', content_type: 'text/markdown' });
    const put = (body: Uint8Array) =>
      fetch(created.body.upload_url, { method: 'PUT', headers: created.body.headers, body: new Uint8Array(body) });
    const id = created.body.template_id;
    assert.equal((await put(utf8('{{first}}'))).status, 201);
    assert.equal((await call(`/api/v1/templates/${id}/scan`)).body.status, 'scanned');
    assert.equal((await call(`/api/v1/templates/${id}/save`, { active: true })).body.active, true);

    const second = utf8('{{second}} and {{third}}');
    assert.equal((await put(second)).status, 201);
    const scanned = await call(`/api/v1/templates/${id}/scan`);
    assert.equal(scanned.status, 200, scanned.text);
    assert.deepEqual(
      scanned.body.placeholders.map((p: { name: string }) => p.name),
      ['second', 'third'],
    );
    assert.deepEqual([scanned.body.file.size_bytes, scanned.body.file.sha256], [second.length, sha256(second)]);
    assert.equal(scanned.body.active, false, 'a new file must be activated again');

    assert.equal((await put(new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 0]))).status, 201);
    const rescan = await call(`/api/v1/templates/${id}/scan`);
    assert.deepEqual([rescan.status, rescan.body.code], [409, 'template_not_uploaded']);
    const rejected = await call(`/api/v1/templates/${id}`);
    assert.deepEqual([rejected.body.status, rejected.body.rejection_reason], ['rejected', 'content_mismatch']);
    assert.equal(await blobExists(id), false);
  });
});

describe('access', () => {
  test('a non-admin answers 403 insufficient_role; a tenant without the feature 403 feature_disabled', async () => {
    const user = await server.login('acme', 'user');
    const asUser = await call('/api/v1/templates', {}, user);
    assert.deepEqual([asUser.status, asUser.body.code], [403, 'insufficient_role']);
    const globex = await server.login('globex', 'admin');
    const upload = await call('/api/v1/templates/upload-url', { name: 'x', file_name: 'x.md', content_type: 'text/markdown' }, globex);
    assert.deepEqual([upload.status, upload.body.code], [403, 'feature_disabled']);
  });
});
