// Templates through the SDK against the real reference server: upload URL → PUT the file → scan →
// save → get → delete.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, test } from 'node:test';
import type { TestServer } from '../../server/test/support/harness.js';
import { ConflictError, type GroundcheckClient, NotFoundError } from '../src/index.js';
import { startReferenceServer } from './support/reference-server.js';

let server: TestServer;
let admin: GroundcheckClient;

before(async () => {
  ({ server, admin } = await startReferenceServer());
});
after(() => server.close());

test('upload-url, upload, scan, save and activate a Markdown template', async () => {
  const bytes = new TextEncoder().encode('# Offer for {{ customer }}\n\nPrice: {{price}} ({{price}} net)\n');
  const target = await admin.templates.getUploadUrl({
    name: 'Offer',
    file_name: 'offer.md',
    content_type: 'text/markdown',
    size_bytes: bytes.length,
  });
  const put = await fetch(target.upload_url, { method: target.method, headers: target.headers, body: bytes });
  assert.equal(put.status, 201);

  const early = await admin.templates.save(target.template_id, { active: true }).catch((e: unknown) => e);
  assert.ok(early instanceof ConflictError, String(early));
  assert.equal(early.code, 'template_not_scanned');

  const scanned = await admin.templates.scan(target.template_id);
  assert.equal(scanned.status, 'scanned');
  assert.equal(scanned.file.sha256, createHash('sha256').update(bytes).digest('hex'));
  assert.deepEqual(scanned.placeholders, [
    { name: 'customer', occurrences: 1 },
    { name: 'price', occurrences: 2 },
  ]);

  const saved = await admin.templates.save(target.template_id, {
    active: true,
    schema: {
      fields: [
        { name: 'customer', type: 'string', required: true },
        { name: 'price', type: 'number', required: true, description: 'Net price in EUR' },
      ],
    },
  });
  assert.equal(saved.active, true);
  assert.equal(saved.schema?.fields[1]?.type, 'number');
  const { data } = await admin.templates.list();
  assert.ok(data.some((t) => t.template_id === target.template_id && t.active));
  assert.equal((await admin.templates.get(target.template_id)).schema?.fields.length, 2);
  assert.deepEqual(
    { ...(await admin.templates.delete(target.template_id)), lastResponse: undefined },
    { template_id: target.template_id, deleted: true, lastResponse: undefined },
  );
  const gone = await admin.templates.get(target.template_id).catch((e: unknown) => e);
  assert.ok(gone instanceof NotFoundError, String(gone));
});
