// Completing an upload: the server reads what was stored through the presigned URL and checks it.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import type { ObjectStorage, TenantObjectStorage } from '../../src/blobs/object-storage.js';
import { openObjectStorage } from '../../src/blobs/open-object-storage.js';
import { checkUploadedObject, sha256Hex } from '../../src/services/sources/upload-check.js';
import { docxType, makeDocx, makePdf } from './fixtures.js';

describe('checkUploadedObject', () => {
  let storage: ObjectStorage;
  let acme: TenantObjectStorage;

  before(async () => {
    storage = await openObjectStorage({ account: null, container: 'uploads', log: pino({ level: 'silent' }) });
    acme = storage.forTenant('acme');
  });
  after(() => storage.close());

  async function put(key: string, body: Uint8Array, contentType: string) {
    const presigned = await acme.presignUpload(key, { contentType, now: new Date() });
    const response = await fetch(presigned.upload_url, { method: 'PUT', headers: presigned.headers, body: new Uint8Array(body) });
    assert.equal(response.status, 201);
  }

  it('accepts real files and computes size and SHA-256 from the stored bytes', async () => {
    const files: Array<[string, Uint8Array, string]> = [
      ['fil_pdf', await makePdf([['Policy text']]), 'application/pdf'],
      ['fil_docx', await makeDocx({ body: ['Policy text'] }), docxType],
      ['fil_html', new TextEncoder().encode('<h1>Policy</h1>'), 'text/html'],
      ['fil_md', new TextEncoder().encode('# Policy\n'), 'text/markdown'],
    ];
    for (const [key, bytes, type] of files) {
      await put(key, bytes, type);
      const result = await checkUploadedObject({
        storage: acme,
        key,
        declaredType: type,
        declaredSizeBytes: bytes.length,
        maxSizeBytes: 52_428_800,
      });
      assert.ok(result.ok, JSON.stringify(result));
      assert.equal(result.sizeBytes, bytes.length);
      assert.equal(result.sha256, createHash('sha256').update(bytes).digest('hex'));
      assert.equal(result.sha256, sha256Hex(bytes));
    }
  });

  it('rejects with a reason: missing, mismatched content, wrong size, too large', async () => {
    const text = new TextEncoder().encode('not a pdf at all');
    await put('fil_fake_pdf', text, 'application/pdf');
    const check = (key: string, overrides: { declaredType?: string; declaredSizeBytes?: number; maxSizeBytes?: number } = {}) =>
      checkUploadedObject({ storage: acme, key, declaredType: 'application/pdf', maxSizeBytes: 1000, ...overrides });
    assert.equal(((await check('fil_never_uploaded')) as { reason: string }).reason, 'not_uploaded');
    assert.equal(((await check('fil_fake_pdf')) as { reason: string }).reason, 'content_mismatch');
    assert.equal(
      ((await check('fil_fake_pdf', { declaredType: 'text/plain', declaredSizeBytes: 3 })) as { reason: string }).reason,
      'size_mismatch',
    );
    assert.equal(
      ((await check('fil_fake_pdf', { declaredType: 'text/plain', maxSizeBytes: 10 })) as { reason: string }).reason,
      'too_large',
    );
    assert.ok((await check('fil_fake_pdf', { declaredType: 'text/plain' })).ok);
  });
});
