// Source groups over HTTP on loopback: save, upload through the presigned URL, checked on the next
// list, visibility by data-access role, rejection of mismatched bytes, deletes, other tenants' ids.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from '../support/harness.js';
import { uploadSourceFile } from '../support/source-files.js';
import { makePdf } from './fixtures.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
let server: TestServer;
let admin: string;

before(async () => {
  server = await startTestServer();
  admin = await server.login('acme', 'admin');
});
after(() => server.close());

const call = (path: string, body: object = {}, token = admin) => server.call(path, body, { token });

const upload = (groupId: string, bytes: Uint8Array, contentType: string, fileName: string) =>
  uploadSourceFile(server, admin, { groupId, fileName, contentType, bytes });

test('create, upload, list ready with size and SHA-256; mismatched bytes rejected and deleted', async () => {
  const created = await call('/api/v1/sources/group/save', { name: 'Handbook' });
  assert.equal(created.status, 200, created.text);
  const groupId = created.body.group_id;
  assert.equal((await call('/api/v1/sources/group/save', { name: 'Handbook' })).body.code, 'group_name_taken');
  const pdf = await makePdf([['Full-time employees get 25 days of paid leave.']]);
  const good = await upload(groupId, pdf, 'application/pdf', 'handbook.pdf');
  const bad = await upload(groupId, new TextEncoder().encode('not a pdf'), 'application/pdf', 'fake.pdf');
  const list = await call('/api/v1/sources');
  assert.equal(list.status, 200, list.text);
  const files = list.body.data.find((g: { group_id: string }) => g.group_id === groupId).files;
  const byId = new Map(files.map((f: { file_id: string }) => [f.file_id, f]));
  assert.deepEqual(
    { status: (byId.get(good) as any).status, size: (byId.get(good) as any).size_bytes, sha: (byId.get(good) as any).sha256 },
    { status: 'ready', size: pdf.length, sha: sha256(pdf) },
  );
  assert.equal((byId.get(bad) as any).status, 'rejected');
  assert.equal((byId.get(bad) as any).rejection_reason, 'content_mismatch');
  assert.equal(await server.container.storage.forTenant('acme').getProperties(`sources/${groupId}/${bad}`), null);

  // Another tenant's admin cannot reach the group or file.
  const globex = await server.login('globex', 'admin');
  assert.equal((await call('/api/v1/sources/file/delete', { group_id: groupId, file_id: good }, globex)).status, 404);
  assert.equal((await call('/api/v1/sources/group/delete', { group_id: groupId }, globex)).status, 404);

  const deletedFile = await call('/api/v1/sources/file/delete', { group_id: groupId, file_id: good });
  assert.equal(deletedFile.status, 200, deletedFile.text);
  assert.equal(await server.container.storage.forTenant('acme').getProperties(`sources/${groupId}/${good}`), null);
});

test('role-restricted groups are invisible to callers without the role', async () => {
  const hr = await call('/api/v1/sources/group/save', { name: 'HR only', allowed_roles: ['hr'] });
  const open = await call('/api/v1/sources/group/save', { name: 'Everyone' });
  const names = async (token: string) => (await call('/api/v1/sources', {}, token)).body.data.map((g: { group_id: string }) => g.group_id);
  const viewer = await names(await server.login('acme', 'viewer'));
  const user = await names(await server.login('acme', 'user'));
  assert.ok(!viewer.includes(hr.body.group_id) && viewer.includes(open.body.group_id));
  assert.ok(user.includes(hr.body.group_id));
  // An update that leaves out allowed_roles keeps them.
  const renamed = await call('/api/v1/sources/group/save', { group_id: hr.body.group_id, name: 'HR policies' });
  assert.deepEqual(renamed.body.allowed_roles, ['hr']);
});

test('delete a group with and without purging its files', async () => {
  const storage = server.container.storage.forTenant('acme');
  const count = async (id: string) => {
    let n = 0;
    for await (const _ of storage.list(`sources/${id}/`)) n += 1;
    return n;
  };
  const pdf = await makePdf([['Policy']]);
  const kept = (await call('/api/v1/sources/group/save', { name: 'Kept' })).body.group_id;
  await upload(kept, pdf, 'application/pdf', 'a.pdf');
  const purged = (await call('/api/v1/sources/group/save', { name: 'Purged' })).body.group_id;
  await upload(purged, pdf, 'application/pdf', 'a.pdf');
  assert.deepEqual((await call('/api/v1/sources/group/delete', { group_id: kept })).body, {
    group_id: kept,
    deleted: true,
    files_purged: 0,
  });
  assert.equal(await count(kept), 1);
  assert.deepEqual((await call('/api/v1/sources/group/delete', { group_id: purged, purge_files: true })).body, {
    group_id: purged,
    deleted: true,
    files_purged: 1,
  });
  assert.equal(await count(purged), 0);
  assert.equal((await call('/api/v1/sources/group/delete', { group_id: purged })).status, 404);
  // The name is free again once its group is deleted.
  assert.equal((await call('/api/v1/sources/group/save', { name: 'Kept' })).status, 200);
});
