// Finding F3 through HTTP: DOCX files that inflate far beyond their size (a few hundred KB that
// become tens of MB of XML) are sources of a validation. Each parser child stays within its budget
// (SOURCE_PARSER_MEMORY_MB, small here), no more than two run at once, the validation answers with
// the files skipped and their reason, and the server goes on serving.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/harness.js';
import { isolatedChildrenOf } from '../support/isolated-children.js';
import { uploadSourceFile } from '../support/source-files.js';
import { docxType, makeRawDocx } from './fixtures.js';

let server: TestServer;
let admin: string;

before(async () => {
  server = await startTestServer({ env: { SOURCE_PARSER_MEMORY_MB: '32' } });
  admin = await server.login('acme', 'admin');
});
after(() => server.close());

const call = (path: string, body: object = {}) => server.call(path, body, { token: admin });

describe('sources that inflate beyond the parser budget', { skip: !existsSync('/proc/self/stat') && 'reads /proc' }, () => {
  it('are skipped with their reason, two parsers at most at once, and the server keeps serving', async () => {
    // 48 MB of paragraphs, well past a 32 MB heap once parsed; deflate makes it a few hundred KB.
    const bomb = makeRawDocx('<w:p><w:r><w:t>Refunds are paid within fourteen days.</w:t></w:r></w:p>'.repeat((48 * 1024 * 1024) / 64));
    assert.ok(bomb.length < 1024 * 1024, `the file is ${bomb.length} bytes`);
    const group = await call('/api/v1/sources/group/save', { name: `Bombs ${Date.now()}` });
    assert.equal(group.status, 200, group.text);
    const groupId = group.body.group_id as string;
    for (const fileName of ['one.docx', 'two.docx', 'three.docx']) {
      await uploadSourceFile(server, admin, { groupId, fileName, contentType: docxType, bytes: bomb });
    }
    let most = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        most = Math.max(most, await isolatedChildrenOf(process.pid));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const reply = await call('/api/v1/validate', {
      mode: 'validate',
      question: 'How soon are refunds paid?',
      chatbot_response: 'Refunds are paid within fourteen days.',
      source_groups: [groupId],
    });
    sampling = false;
    await sampler;
    assert.equal(reply.status, 200, reply.text);
    const skipped = reply.body.metadata.skipped_sources as { reference: string; reason: string }[];
    assert.equal(skipped.length, 3, JSON.stringify(skipped));
    assert.ok(skipped.every((s) => s.reason === 'extraction_failed'));
    assert.ok(most >= 1 && most <= 2, `${most} parser children at once`);
    assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
  });
});
