// A stored item that breaks the contract (written by an older version, or damaged) is left out of
// its list with a warning; the tenant still gets the list, never a 500. Each list is given one good
// item made through the API and a copy of it, written straight to Cosmos DB, with one field broken.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { capturedLog } from '../support/captured-log.js';
import { startTestServer, type TestServer } from '../support/harness.js';

type Document = Record<string, unknown> & { id: string };

let server: TestServer;
let admin: string;
const { log, lines } = capturedLog('warn');

before(async () => {
  server = await startTestServer({ log });
  admin = await server.login('acme', 'admin');
});
after(() => server.close());

const call = (path: string, body: object = {}) => server.call(path, body, { token: admin });

/** Copies the stored document `id` of `container` under a new id, broken by `damage`; returns the new id. */
async function damagedCopy(container: string, id: string, damage: (copy: Document) => void, newId = `${id}x`): Promise<string> {
  const { resource } = await server.cosmos
    .container(container as never)
    .item(id, 'acme')
    .read<Document>();
  assert.ok(resource, `${container}/${id} is stored`);
  const { _rid, _self, _etag, _ts, _attachments, ...copy } = resource as Document;
  copy.id = newId;
  damage(copy as Document);
  await server.cosmos.container(container as never).items.create(copy);
  return newId;
}

async function validation(): Promise<string> {
  const validated = await call('/api/v1/validate', {
    mode: 'validate',
    question: 'How long is the warranty?',
    chatbot_response: 'The warranty lasts two years.',
    inline_text: 'Every appliance carries a two-year warranty.',
  });
  assert.equal(validated.status, 200, validated.text);
  return validated.body.validation_id;
}

function warnedAbout(item: string): boolean {
  return lines.some((line) => line.msg.includes('left out of the list') && line.item === item);
}

describe('lists leave out stored items that break the contract', () => {
  it('history', async () => {
    const good = await validation();
    const bad = await damagedCopy(
      'history',
      good,
      (copy) => {
        copy.validation_id = copy.id;
        copy.mode = 'guesswork';
      },
      // Another id of the same shape: its last character changed.
      `${good.slice(0, -1)}${good.endsWith('Z') ? 'Y' : 'Z'}`,
    );
    const list = await call('/api/v1/history', { limit: 100 });
    assert.equal(list.status, 200, list.text);
    const ids = list.body.data.map((r: { validation_id: string }) => r.validation_id);
    assert.ok(ids.includes(good));
    assert.ok(!ids.includes(bad));
    assert.ok(warnedAbout(bad));
  });

  it('source groups', async () => {
    const saved = await call('/api/v1/sources/group/save', { name: `Handbooks ${Date.now()}` });
    assert.equal(saved.status, 200, saved.text);
    const good = saved.body.group_id as string;
    const bad = await damagedCopy('sources', good, (copy) => {
      copy.name = 42;
    });
    const list = await call('/api/v1/sources');
    assert.equal(list.status, 200, list.text);
    const ids = list.body.data.map((g: { group_id: string }) => g.group_id);
    assert.ok(ids.includes(good) && !ids.includes(bad));
    assert.ok(warnedAbout(bad));
  });

  it('templates', async () => {
    const created = await call('/api/v1/templates/upload-url', {
      name: 'Renewal letter',
      file_name: 'renewal.docx',
      content_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      size_bytes: 1000,
    });
    assert.equal(created.status, 200, created.text);
    const good = created.body.template_id as string;
    const bad = await damagedCopy('templates', good, (copy) => {
      copy.name = null;
    });
    const list = await call('/api/v1/templates');
    assert.equal(list.status, 200, list.text);
    const ids = list.body.data.map((t: { template_id: string }) => t.template_id);
    assert.ok(ids.includes(good) && !ids.includes(bad));
    assert.ok(warnedAbout(bad));
  });

  it('users', async () => {
    const list = await call('/api/v1/saas/users', {});
    assert.equal(list.status, 200, list.text);
    const good = list.body.data[0].user_id as string;
    const bad = await damagedCopy('users', good, (copy) => {
      copy.role = 'overlord';
    });
    const again = await call('/api/v1/saas/users', {});
    assert.equal(again.status, 200, again.text);
    const ids = again.body.data.map((u: { user_id: string }) => u.user_id);
    assert.ok(ids.includes(good) && !ids.includes(bad));
    assert.ok(warnedAbout(bad));
  });

  it('audit events', async () => {
    await validation();
    const events = await call('/api/v1/audit', { limit: 10 });
    assert.equal(events.status, 200, events.text);
    const good = events.body.data[0].event_id as string;
    const bad = await damagedCopy('audit', good, (copy) => {
      (copy.event as Record<string, unknown>).event_id = copy.id;
      (copy.event as Record<string, unknown>).hash = 'not a digest';
    });
    const again = await call('/api/v1/audit', { limit: 100 });
    assert.equal(again.status, 200, again.text);
    const ids = again.body.data.map((e: { event_id: string }) => e.event_id);
    assert.ok(ids.includes(good) && !ids.includes(bad));
    assert.ok(warnedAbout(bad));
  });
});
