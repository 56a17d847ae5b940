// File names of uploads: stored as NFC; names with direction overrides, unpaired surrogates, "." or
// "..", or a reserved device name are refused with 400 and nothing is stored (issue 21, F8).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { checkedFileName } from '../../src/lib/file-names.js';
import { startTestServer, type TestServer } from '../support/harness.js';

let server: TestServer;
let token: string;
const call = (path: string, body: object) => server.call(path, body, { token });

describe('upload file names', () => {
  before(async () => {
    server = await startTestServer();
    token = await server.login('acme', 'admin');
  });
  after(() => server.close());

  it('refuses misleading names on both upload routes, and stores nothing', async () => {
    const group = await call('/api/v1/sources/group/save', { name: 'File names' });
    assert.equal(group.status, 200, group.text);
    const refused = ['invoice\u202Efdp.exe', 'half\uD800.txt', '..', '.', 'CON', 'nul.txt', 'com1.md', 'notes.', ' padded.md'];
    for (const name of refused) {
      const source = await call('/api/v1/sources/upload-url', {
        group_id: group.body.group_id,
        file_name: name,
        content_type: 'text/plain',
      });
      assert.deepEqual([source.status, source.body.code, source.body.errors?.[0]?.pointer], [400, 'invalid_request', '/file_name'], name);
      const template = await call('/api/v1/templates/upload-url', { name: 'T', file_name: name, content_type: 'text/markdown' });
      assert.deepEqual([template.status, template.body.code], [400, 'invalid_request'], name);
    }
    const listed = await call('/api/v1/sources', {});
    const files = listed.body.data.find((g: { group_id: string }) => g.group_id === group.body.group_id).files;
    assert.deepEqual(files, []);
    assert.deepEqual((await call('/api/v1/templates', {})).body.data, []);
  });

  it('stores a name as NFC', async () => {
    const group = await call('/api/v1/sources/group/save', { name: 'Composed names' });
    const decomposed = 'Re\u0301sume\u0301.txt';
    const target = await call('/api/v1/sources/upload-url', {
      group_id: group.body.group_id,
      file_name: decomposed,
      content_type: 'text/plain',
    });
    assert.equal(target.status, 200, target.text);
    const listed = await call('/api/v1/sources', {});
    const files = listed.body.data.find((g: { group_id: string }) => g.group_id === group.body.group_id).files;
    assert.equal(files[0].name, 'R\u00e9sum\u00e9.txt');
  });

  it('keeps ordinary names as they are', () => {
    for (const name of ['report 2026.pdf', 'Übersicht.docx', 'console.md', 'a.b.c.txt', '中文.txt'])
      assert.equal(checkedFileName(name), name);
  });
});
