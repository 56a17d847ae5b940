// A source file uploaded as a client uploads it: an upload URL from the API, then a PUT of the bytes
// straight to storage. Returns the file's id.
import assert from 'node:assert/strict';
import type { TestServer } from './harness.js';

export async function uploadSourceFile(
  server: TestServer,
  token: string,
  file: { groupId: string; fileName: string; contentType: string; bytes: Uint8Array },
): Promise<string> {
  const reply = await server.call(
    '/api/v1/sources/upload-url',
    { group_id: file.groupId, file_name: file.fileName, content_type: file.contentType, size_bytes: file.bytes.length },
    { token },
  );
  assert.equal(reply.status, 200, reply.text);
  const put = await fetch(reply.body.upload_url, {
    method: reply.body.method,
    headers: reply.body.headers,
    body: new Uint8Array(file.bytes),
  });
  assert.equal(put.status, 201, await put.text());
  return reply.body.file_id;
}
