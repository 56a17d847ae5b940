// POST /api/v1/stats after a scripted series of validations, reviews, source and template changes
// and deletions: every counter is what the script says, as the writes keep it (nothing is counted
// at read time). The clock is injected: `this_month` follows it, and retention ends `total`.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../src/lib/clock.js';
import { writeFixture } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/harness.js';
import { callAs, review, validateInline } from '../support/history.js';

const dayMs = 24 * 60 * 60 * 1000;
// Upload URLs are checked by storage against the real time, so the script starts now.
const clock = new ManualClock(new Date());
let server: TestServer;
const admin = () => server.apiKeyBody('acme', 'admin');

before(async () => {
  const fixture = await writeFixture({ overrides: { acme: { audit_retention_days: 400, workflow: { review_required: 'when_issues' } } } });
  server = await startTestServer({ fixture, clock });
});
after(() => server.close());

async function stats() {
  const reply = await callAs(server, '/api/v1/stats', server.apiKeyBody('acme', 'viewer'));
  assert.equal(reply.status, 200, reply.text);
  assert.equal(reply.body.generated_at, clock.now().toISOString());
  return reply.body;
}

async function uploadSource(groupId: string, text: string): Promise<string> {
  const bytes = Buffer.from(text);
  const upload = await callAs(server, '/api/v1/sources/upload-url', admin(), {
    group_id: groupId,
    file_name: 'policy.txt',
    content_type: 'text/plain',
    size_bytes: bytes.length,
  });
  assert.equal(upload.status, 200, upload.text);
  assert.equal((await fetch(upload.body.upload_url, { method: 'PUT', headers: upload.body.headers, body: bytes })).status, 201);
  return upload.body.file_id;
}

async function uploadTemplate(name: string): Promise<string> {
  const bytes = Buffer.from(`Dear {{name}}, welcome to ${name}.`);
  const reply = await callAs(server, '/api/v1/templates/upload-url', admin(), {
    name,
    file_name: 'welcome.md',
    content_type: 'text/markdown',
    size_bytes: bytes.length,
  });
  assert.equal(reply.status, 200, reply.text);
  assert.equal((await fetch(reply.body.upload_url, { method: 'PUT', headers: reply.body.headers, body: bytes })).status, 201);
  return reply.body.template_id;
}

const ok = async (reply: Promise<{ status: number; text: string }>) => {
  const settled = await reply;
  assert.equal(settled.status, 200, settled.text);
};

test('the counters follow a scripted series of writes', async () => {
  assert.deepEqual(await stats(), {
    customer_id: 'acme',
    generated_at: clock.now().toISOString(),
    validations: { this_month: 0, total: 0, with_issues: 0, by_mode: { validate: 0, generate: 0, validate_and_fix: 0 } },
    reviews: { pending_review: 0, approved: 0, rejected: 0, edited: 0, handed_off: 0, external_approved: 0, external_rejected: 0 },
    sources: { groups: 0, files: 0, bytes: 0 },
    templates: { total: 0, active: 0 },
  });

  // Validations: three with issues (pending review), one without (no review), one generated answer.
  const user = { token: await server.login('acme', 'user') };
  const pending = [await validateInline(server, user), await validateInline(server, user), await validateInline(server, user)];
  await validateInline(server, user, { issues: false });
  const generated = await validateInline(server, user, { mode: 'generate' });
  const generatedIssues = generated.issue_count > 0 ? 1 : 0;
  let figures = await stats();
  assert.deepEqual(figures.validations, {
    this_month: 5,
    total: 5,
    with_issues: 3 + generatedIssues,
    by_mode: { validate: 4, generate: 1, validate_and_fix: 0 },
  });
  assert.equal(figures.reviews.pending_review, 3 + generatedIssues);

  // Reviews: approve one, hand one off and let the external system reject it; the third stays pending.
  await ok(review(server, user, pending[0]!.validation_id, { action: 'approve', note: 'Fine.' }));
  await ok(review(server, user, pending[1]!.validation_id, { action: 'handoff', external_reference: 'LEGAL-1' }));
  assert.equal((await stats()).reviews.handed_off, 1);
  await ok(review(server, server.apiKeyBody('acme', 'user'), pending[1]!.validation_id, { action: 'external_reject' }));
  // A refused action changes no counter.
  assert.equal((await review(server, user, pending[0]!.validation_id, { action: 'reject', note: 'No.' })).status, 409);
  figures = await stats();
  assert.deepEqual(figures.reviews, {
    pending_review: 1 + generatedIssues,
    approved: 1,
    rejected: 0,
    edited: 0,
    handed_off: 0,
    external_approved: 0,
    external_rejected: 1,
  });

  // Sources: two groups; files count once their bytes are checked (ready); deletions count off.
  const group = (await callAs(server, '/api/v1/sources/group/save', admin(), { name: 'Policies' })).body.group_id;
  const other = (await callAs(server, '/api/v1/sources/group/save', admin(), { name: 'Handbook' })).body.group_id;
  await uploadSource(group, 'Leave is 25 days.');
  const second = await uploadSource(group, 'Notice is one month, in writing.');
  await uploadSource(other, 'Expenses within 30 days.');
  assert.deepEqual((await stats()).sources, { groups: 2, files: 0, bytes: 0 }, 'uploads not yet checked');
  await ok(callAs(server, '/api/v1/sources', admin()));
  assert.deepEqual((await stats()).sources, { groups: 2, files: 3, bytes: 17 + 32 + 24 });
  await ok(callAs(server, '/api/v1/sources/file/delete', admin(), { group_id: group, file_id: second }));
  assert.deepEqual((await stats()).sources, { groups: 2, files: 2, bytes: 17 + 24 });
  await ok(callAs(server, '/api/v1/sources/group/save', admin(), { group_id: group, description: 'An update that changes no count' }));
  await ok(callAs(server, '/api/v1/sources/group/delete', admin(), { group_id: group, purge_files: true }));
  assert.deepEqual((await stats()).sources, { groups: 1, files: 1, bytes: 24 });

  // Templates: two created, one scanned and activated, deactivated and activated again, then deleted.
  const welcome = await uploadTemplate('Welcome');
  await uploadTemplate('Farewell');
  assert.deepEqual((await stats()).templates, { total: 2, active: 0 });
  await ok(callAs(server, `/api/v1/templates/${welcome}/scan`, admin()));
  await ok(callAs(server, `/api/v1/templates/${welcome}/save`, admin(), { active: true }));
  assert.deepEqual((await stats()).templates, { total: 2, active: 1 });
  await ok(callAs(server, `/api/v1/templates/${welcome}/save`, admin(), { active: false }));
  assert.deepEqual((await stats()).templates, { total: 2, active: 0 });
  await ok(callAs(server, `/api/v1/templates/${welcome}/save`, admin(), { active: true, name: 'Welcome letter' }));
  await ok(callAs(server, `/api/v1/templates/${welcome}/delete`, admin()));
  assert.deepEqual((await stats()).templates, { total: 1, active: 0 });

  // Another tenant's counters are its own.
  const globex = await callAs(server, '/api/v1/stats', server.apiKeyBody('globex', 'viewer'));
  assert.equal(globex.body.validations.total, 0);
  assert.deepEqual(globex.body.sources, { groups: 0, files: 0, bytes: 0 });

  // The next month starts: this_month is 0, the retained total is not.
  const now = clock.now();
  clock.set(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 0, 30)));
  figures = await stats();
  assert.equal(figures.validations.this_month, 0);
  assert.equal(figures.validations.total, 5);

  // Past the history retention (90 days) the validations and their reviews are no longer counted.
  clock.set(new Date(now.getTime() + 91 * dayMs));
  figures = await stats();
  assert.deepEqual(figures.validations, {
    this_month: 0,
    total: 0,
    with_issues: 0,
    by_mode: { validate: 0, generate: 0, validate_and_fix: 0 },
  });
  assert.equal(figures.reviews.pending_review + figures.reviews.approved + figures.reviews.external_rejected, 0);
  assert.deepEqual(figures.sources, { groups: 1, files: 1, bytes: 24 });
});
