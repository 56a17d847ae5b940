// Source groups through the SDK against the real reference server: create a group, get an upload URL
// and PUT a PDF with plain fetch (and a Markdown file with `uploadFile`), list until both are ready,
// ground a validation on the group, then delete it with its files purged from storage.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, test } from 'node:test';
import { makePdf } from '../../server/test/sources/fixtures.js';
import type { TestServer } from '../../server/test/support/harness.js';
import { type GroundcheckClient, NotFoundError } from '../src/index.js';
import { signIn, startReferenceServer } from './support/reference-server.js';

let server: TestServer;
let admin: GroundcheckClient;
let user: GroundcheckClient;

before(async () => {
  ({ server, admin } = await startReferenceServer());
  user = await signIn(server, 'acme', 'user');
});
after(() => server.close());

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

test('create a group, upload, list until ready, validate against it, delete with purge', async () => {
  const group = await admin.sources.saveGroup({ name: 'Expense policy', allowed_roles: ['hr'] });
  assert.match(group.group_id, /^grp_/);
  assert.deepEqual(group.files, []);

  const pdf = await makePdf([['Hotel costs are reimbursed up to 180 euros per night.']]);
  const target = await admin.sources.getUploadUrl({
    group_id: group.group_id,
    file_name: 'expenses.pdf',
    content_type: 'application/pdf',
    size_bytes: pdf.length,
  });
  assert.equal(target.method, 'PUT');
  const put = await fetch(target.upload_url, { method: target.method, headers: target.headers, body: new Uint8Array(pdf) });
  assert.equal(put.status, 201, await put.text());
  const markdown = '# Travel\n\nClaims must be filed within 30 days of the trip.\n';
  const uploaded = await admin.sources.uploadFile(group.group_id, 'travel.md', markdown);

  let files: Awaited<ReturnType<typeof admin.sources.list>>['data'][number]['files'] = [];
  for (let attempt = 0; attempt < 20; attempt += 1) {
    files = (await admin.sources.list()).data.find((g) => g.group_id === group.group_id)!.files;
    if (files.every((f) => f.status === 'ready')) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const byId = new Map(files.map((f) => [f.file_id, f]));
  assert.deepEqual(
    [byId.get(target.file_id), byId.get(uploaded.file_id)].map((f) => [f?.status, f?.size_bytes, f?.sha256]),
    [
      ['ready', pdf.length, sha256(pdf)],
      ['ready', Buffer.byteLength(markdown), sha256(new TextEncoder().encode(markdown))],
    ],
  );

  const result = await user.validate({
    mode: 'validate',
    question: 'How much is reimbursed for a hotel night, and when must claims be filed?',
    chatbot_response: 'Hotel costs are reimbursed up to 250 euros per night. Claims must be filed within 30 days of the trip.',
    source_groups: [group.group_id],
  });
  assert.deepEqual(
    result.sources.map((s) => [s.kind, s.reference, s.sha256]),
    [
      ['file', `${group.group_id}/${target.file_id}/expenses.pdf`, sha256(pdf)],
      ['file', `${group.group_id}/${uploaded.file_id}/travel.md`, sha256(new TextEncoder().encode(markdown))],
    ],
  );
  const statuses = Object.fromEntries(result.claims.map((claim) => [/250/.test(claim.text) ? 'hotel' : 'claims', claim.status]));
  assert.deepEqual(statuses, { hotel: 'contradicted', claims: 'supported' }, JSON.stringify(result.claims));

  const deleted = await admin.sources.deleteGroup({ group_id: group.group_id, purge_files: true });
  assert.equal(deleted.files_purged, 2);
  const storage = server.container.storage.forTenant('acme');
  for (const fileId of [target.file_id, uploaded.file_id]) {
    assert.equal(await storage.getProperties(`sources/${group.group_id}/${fileId}`), null);
  }
  assert.ok(!(await admin.sources.list()).data.some((g) => g.group_id === group.group_id));
  const again = await admin.sources.deleteGroup({ group_id: group.group_id }).catch((e: unknown) => e);
  assert.ok(again instanceof NotFoundError, String(again));
});
