// Real PDF, DOCX, HTML and Markdown files through the presigned URL: `ready` with the size and
// SHA-256 of their bytes, each format's text grounding a validation, the extracted text kept and
// reused (not extracted again), a file without text skipped with its reason, kept text removed with
// its file, and an upload never made dropped from the inventory once its URL has expired.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { TenantObjectStorage } from '../../src/blobs/object-storage.js';
import { ManualClock } from '../../src/lib/clock.js';
import { extractionKey } from '../../src/services/sources/extraction-cache.js';
import { uploadUrlLifetimeMs } from '../../src/services/sources/source-groups.js';
import { uploadGraceMs } from '../../src/services/sources/source-upload.js';
import { explained } from '../../src/services/validation/skip-reasons.js';
import { startTestServer, type TestServer } from '../support/harness.js';
import { uploadSourceFile } from '../support/source-files.js';
import { docxType, makeDocx, makePdf } from './fixtures.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const utf8 = (text: string) => new TextEncoder().encode(text);

// The clock starts at the real time, so that the storage service accepts the upload URLs it signs.
const clock = new ManualClock(new Date());
let server: TestServer;
let admin: string;
let user: string;
let storage: TenantObjectStorage;

before(async () => {
  server = await startTestServer({ clock });
  admin = await server.login('acme', 'admin');
  user = await server.login('acme', 'user');
  storage = server.container.storage.forTenant('acme');
});
after(() => server.close());

const call = (path: string, body: object = {}, token = admin) => server.call(path, body, { token });

async function createGroup(name: string): Promise<string> {
  const reply = await call('/api/v1/sources/group/save', { name: `${name} ${Date.now()}` });
  assert.equal(reply.status, 200, reply.text);
  return reply.body.group_id;
}

const upload = (groupId: string, fileName: string, contentType: string, bytes: Uint8Array) =>
  uploadSourceFile(server, admin, { groupId, fileName, contentType, bytes });

async function inventory(groupId: string): Promise<Array<Record<string, unknown>>> {
  const list = await call('/api/v1/sources');
  assert.equal(list.status, 200, list.text);
  return list.body.data.find((g: { group_id: string }) => g.group_id === groupId).files;
}

const validate = (answer: string, groups: string[]) =>
  call(
    '/api/v1/validate',
    { mode: 'validate', question: 'What do the policies say?', chatbot_response: answer, source_groups: groups },
    user,
  );

interface Result {
  claims: Array<{ text: string; status: string; evidence: Array<{ source_id: string; relation: string }> }>;
  sources: Array<{ source_id: string; reference: string }>;
}

/** The status of the claim containing `fragment`, and the references of the sources supporting it. */
function claimOf(result: Result, fragment: string): { status: string; supportedBy: string[] } {
  const claim = result.claims.find((c) => c.text.includes(fragment));
  assert.ok(claim, `no claim with "${fragment}" in ${JSON.stringify(result.claims.map((c) => c.text))}`);
  const references = new Map(result.sources.map((s) => [s.source_id, s.reference]));
  const supportedBy = claim.evidence.filter((e) => e.relation === 'supports').map((e) => references.get(e.source_id)!);
  return { status: claim.status, supportedBy };
}

describe('uploads of each format', () => {
  let groupId: string;
  const files: Record<string, { id: string; bytes: Uint8Array; type: string; format: string }> = {};

  before(async () => {
    groupId = await createGroup('Policies');
    const formats = {
      'refunds.pdf': { type: 'application/pdf', format: 'pdf', bytes: await makePdf([['Refunds are paid within 14 days.']]) },
      'warranty.docx': {
        type: docxType,
        format: 'docx',
        bytes: await makeDocx({ header: 'Acme Ltd', body: ['The warranty lasts 2 years.'], footer: 'Page 1' }),
      },
      'returns.html': {
        type: 'text/html',
        format: 'html',
        bytes: utf8('<!doctype html><html><body><h1>Returns</h1><p>Items can be returned within <b>30 days</b>.</p></body></html>'),
      },
      'support.md': { type: 'text/markdown', format: 'md', bytes: utf8('# Support\n\nSupport tickets are answered within 4 hours.\n') },
    };
    for (const [name, { type, format, bytes }] of Object.entries(formats)) {
      files[name] = { id: await upload(groupId, name, type, bytes), bytes, type, format };
    }
  });

  test('each file is ready with the size and SHA-256 of its bytes', async () => {
    const listed = new Map((await inventory(groupId)).map((f) => [f.file_id, f]));
    for (const [name, { id, bytes, type }] of Object.entries(files)) {
      const entry = listed.get(id);
      assert.deepEqual(
        { status: entry?.status, name: entry?.name, content_type: entry?.content_type, size: entry?.size_bytes, sha: entry?.sha256 },
        { status: 'ready', name, content_type: type, size: bytes.length, sha: sha256(bytes) },
        name,
      );
    }
  });

  test("each format's text grounds a validation, and the extracted text is kept", async () => {
    const reply = await validate(
      'Refunds are paid within 14 days. The warranty lasts 2 years. Items can be returned within 30 days. Support tickets are answered within 4 hours.',
      [groupId],
    );
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(reply.body.metadata.skipped_sources, []);
    const expected: Array<[string, string]> = [
      ['14 days', 'refunds.pdf'],
      ['2 years', 'warranty.docx'],
      ['30 days', 'returns.html'],
      ['4 hours', 'support.md'],
    ];
    for (const [fragment, name] of expected) {
      const claim = claimOf(reply.body, fragment);
      assert.equal(claim.status, 'supported', `${fragment}: ${JSON.stringify(reply.body.claims)}`);
      assert.ok(claim.supportedBy.includes(`${groupId}/${files[name]!.id}/${name}`), `${fragment}: ${claim.supportedBy}`);
    }
    for (const { bytes, type } of Object.values(files)) {
      assert.ok(await storage.getProperties(extractionKey(sha256(bytes), type)), `kept text for ${type}`);
    }
  });

  test('a second validation reads the kept text instead of extracting the file again', async () => {
    const pdf = files['refunds.pdf']!;
    const key = extractionKey(sha256(pdf.bytes), pdf.type);
    // Change the kept text (never the file): only a validation that reads the kept text sees 21 days.
    const kept = await storage.read(key, { maxBytes: 1 << 20 });
    assert.ok(kept.ok);
    const entry = JSON.parse(kept.bytes.toString('utf8'));
    assert.match(entry.text, /14 days/);
    await storage.write(key, utf8(JSON.stringify({ ...entry, text: entry.text.replace('14 days', '21 days') })), {
      contentType: 'application/json',
    });
    const reply = await validate('Refunds are paid within 21 days.', [groupId]);
    assert.equal(reply.status, 200, reply.text);
    assert.equal(claimOf(reply.body, '21 days').status, 'supported', JSON.stringify(reply.body.claims));
    assert.match(((await storage.read(key, { maxBytes: 1 << 20 })) as { bytes: Buffer }).bytes.toString('utf8'), /21 days/);
  });

  test('deleting a file removes its kept text', async () => {
    const md = files['support.md']!;
    const key = extractionKey(sha256(md.bytes), md.type);
    assert.ok(await storage.getProperties(key));
    assert.equal((await call('/api/v1/sources/file/delete', { group_id: groupId, file_id: md.id })).status, 200);
    assert.equal(await storage.getProperties(key), null);
  });

  test("purging the group removes its files' kept text; deleting without a purge keeps it with the files", async () => {
    const pdf = files['refunds.pdf']!;
    const key = extractionKey(sha256(pdf.bytes), pdf.type);
    // Another group holds the same PDF: deleting that group without a purge keeps the bytes, so their text too.
    const other = await createGroup('Copy');
    await upload(other, 'copy.pdf', pdf.type, pdf.bytes);
    await inventory(other);
    assert.equal((await call('/api/v1/sources/group/delete', { group_id: other })).body.files_purged, 0);
    assert.ok(await storage.getProperties(key));
    assert.equal((await call('/api/v1/sources/group/delete', { group_id: groupId, purge_files: true })).body.files_purged, 3);
    assert.equal(await storage.getProperties(key), null);
    for (const { bytes, type } of Object.values(files)) assert.equal(await storage.getProperties(extractionKey(sha256(bytes), type)), null);
  });
});

test('a file without text is skipped with its reason; the validation still answers', async () => {
  const groupId = await createGroup('Scans');
  const scan = await makePdf([[]]); // a page with no text, as a scanner without OCR makes
  const fileId = await upload(groupId, 'scan.pdf', 'application/pdf', scan);
  const reply = await validate('Refunds are paid within 14 days.', [groupId]);
  assert.equal(reply.status, 200, reply.text);
  assert.deepEqual(reply.body.sources, []);
  assert.deepEqual(reply.body.metadata.skipped_sources, [
    explained({ kind: 'file', reference: `${groupId}/${fileId}/scan.pdf`, group_id: groupId, reason: 'extraction_failed' }),
  ]);
  assert.equal(reply.body.metadata.source_access_filtered, false);
});

test('an upload URL creates its file once: a second PUT cannot replace the checked file', async () => {
  const groupId = await createGroup('Once');
  const target = await call('/api/v1/sources/upload-url', { group_id: groupId, file_name: 'once.md', content_type: 'text/markdown' });
  assert.equal(target.status, 200, target.text);
  const put = (text: string) =>
    fetch(target.body.upload_url, { method: target.body.method, headers: target.body.headers, body: new TextEncoder().encode(text) });
  assert.equal((await put('# Refunds\n\nRefunds are paid within 14 days.\n')).status, 201);
  const [checked] = await inventory(groupId);
  assert.equal(checked!.status, 'ready');
  const again = await put('# Refunds\n\nRefunds are paid within 90 days.\n');
  assert.ok(again.status >= 400, `a second PUT answered ${again.status}`);
  await again.arrayBuffer();
  // The file is still the one that was checked, and validations read it.
  assert.deepEqual((await inventory(groupId))[0], checked);
  const reply = await validate('Refunds are paid within 14 days.', [groupId]);
  assert.equal(reply.status, 200, reply.text);
  assert.equal(reply.body.sources.length, 1);
  assert.deepEqual(reply.body.metadata.skipped_sources, []);
});

// Last in the file: it moves the server's clock forward.
test('an upload never made is dropped from the inventory once its URL has expired', async () => {
  const groupId = await createGroup('Expiring');
  const target = await call('/api/v1/sources/upload-url', { group_id: groupId, file_name: 'late.md', content_type: 'text/markdown' });
  assert.equal(target.status, 200, target.text);
  assert.equal(Date.parse(target.body.expires_at), Math.floor((clock.now().getTime() + uploadUrlLifetimeMs) / 1000) * 1000);
  assert.deepEqual(
    (await inventory(groupId)).map((f) => [f.file_id, f.status]),
    [[target.body.file_id, 'awaiting_upload']],
  );
  // Past the URL's expiry but within the grace period a slow upload may still arrive: the entry stays.
  clock.set(new Date(Date.parse(target.body.expires_at) + uploadGraceMs - 1000));
  assert.equal((await inventory(groupId)).length, 1);
  clock.set(new Date(Date.parse(target.body.expires_at) + uploadGraceMs + 1000));
  assert.deepEqual(await inventory(groupId), []);
});
