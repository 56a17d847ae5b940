// The audit screen in Chromium against the real server: the trail of validations a user made through
// the API (acme's workflow sends each to review, so each writes two events), filtered and paged
// through the URL and the API's cursors, both exports saved as files with the API's content, the
// chain verified intact in the browser and then broken where an event was changed in Cosmos DB,
// and the API's refusal for those who may not read the trail.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AuditEvent } from '@groundcheck/contract';
import type { Download, Page } from 'playwright-core';
import { day } from '../../server/test/support/audit.js';
import { writeFixture } from '../../server/test/support/fixtures.js';
import { auditTrail, validateInline } from '../../server/test/support/history.js';
import { assertAccessible, assertFitsWidth, ConsoleHarness, phone } from './support/console-browser.js';

const validations = 11;
let harness: ConsoleHarness;
let adminToken: string;
let trail: AuditEvent[];

before(async () => {
  const fixture = await writeFixture({ overrides: { acme: { workflow: { review_required: 'always' } } } });
  harness = await ConsoleHarness.start({ fixture });
  const userToken = await harness.server.login('acme', 'user');
  adminToken = await harness.server.login('acme', 'admin');
  for (let i = 0; i < validations; i += 1) await validateInline(harness.server, { token: userToken }, { issues: i % 2 === 0 });
  // Validations write their events through an outbox: wait until all of them are in the trail.
  for (let waited = 0; (trail = await auditTrail(harness.server, 'acme')).length < 2 * validations && waited < 20_000; waited += 100) {
    await sleep(100);
  }
  assert.equal(trail.length, 2 * validations, 'each validation wrote its two events');
});
after(() => harness?.close());

const rows = (page: Page) => page.locator('table.audit-trail tbody tr');

/** The event numbers the table shows, once it shows `count` rows. */
async function shownSequences(page: Page, count: number): Promise<number[]> {
  await page.waitForFunction((n) => document.querySelectorAll('table.audit-trail tbody tr').length === n, count);
  return (await rows(page).locator('td:first-child').allTextContents()).map(Number);
}

/**
 * Waits until the table shows exactly these events, in this order, then checks it: a count alone can be met
 * by the rows of the filters before while the new ones load.
 */
async function expectShown(page: Page, events: AuditEvent[]): Promise<void> {
  const expected = events.map((event) => event.sequence);
  await page
    .waitForFunction(
      (want) => {
        const shown = Array.from(document.querySelectorAll('table.audit-trail tbody tr td:first-child'), (cell) =>
          Number(cell.textContent),
        );
        return JSON.stringify(shown) === JSON.stringify(want);
      },
      expected,
      { timeout: 15_000 },
    )
    .catch(() => undefined);
  assert.deepEqual((await rows(page).locator('td:first-child').allTextContents()).map(Number), expected);
}

/** Clicks `name` and returns the download it starts, with its bytes. */
async function download(page: Page, name: string): Promise<{ download: Download; bytes: Buffer }> {
  const [started] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name, exact: true }).click()]);
  const path = await started.path();
  return { download: started, bytes: await readFile(path) };
}

async function apiExport(body: object): Promise<{ text: string; body: any }> {
  const reply = await harness.server.call('/api/v1/audit/export', body, { token: adminToken });
  assert.equal(reply.status, 200, reply.text);
  return reply;
}

test('the trail filters by kind, actor and dates through the URL, and pages with the cursors the API gives', async () => {
  const session = await harness.signedIn('acme', 'admin', '/audit');
  const { page } = session;
  await page.getByRole('heading', { name: 'Audit', level: 1 }).waitFor();
  await expectShown(page, trail);
  await page.getByText(`Showing ${trail.length} events.`).waitFor();
  await assertAccessible(page, 'audit trail');

  // One kind.
  const form = page.getByRole('form', { name: 'Filter the trail' });
  await form.getByLabel('Review required').check();
  await form.getByRole('button', { name: 'Apply filters' }).click();
  // The API's own answer to the same filter, read now, is what the page must show.
  const reviews = await auditTrail(harness.server, 'acme', { kinds: ['review_required'] });
  assert.equal(reviews.length, validations);
  await expectShown(page, reviews);
  assert.deepEqual(new Set(await rows(page).locator('td:nth-child(3)').allTextContents()), new Set(['Review required']));
  assert.equal(new URL(page.url()).searchParams.get('kind'), 'review_required');

  // One actor, and a reload keeps the filters.
  await form.getByLabel('Review required').uncheck();
  const userId = trail.find((event) => event.kind === 'validation_created')!.actor.id;
  await form.getByLabel('Actor id').fill(userId);
  await form.getByRole('button', { name: 'Apply filters' }).click();
  const byUser = trail.filter((event) => event.actor.id === userId);
  await expectShown(page, byUser);
  await page.reload();
  await expectShown(page, byUser);
  assert.equal(await page.getByRole('form', { name: 'Filter the trail' }).getByLabel('Actor id').inputValue(), userId);

  // An actor's id in the table filters to that actor.
  await rows(page).first().getByRole('link', { name: userId }).click();
  assert.equal(new URL(page.url()).searchParams.get('actor'), userId);
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await shownSequences(page, trail.length);
  await rows(page).nth(1).getByRole('link', { name: 'system' }).click();
  await expectShown(page, reviews);
  assert.equal(await page.getByRole('form', { name: 'Filter the trail' }).getByLabel('Actor id').inputValue(), 'system');

  // Dates: the end before the start is refused in the form; a day without events says so.
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await shownSequences(page, trail.length);
  await form.getByLabel('From (UTC day)').fill(day(0));
  await form.getByLabel('To (UTC day)').fill(day(-1));
  await form.getByRole('button', { name: 'Apply filters' }).click();
  await page.getByText('The end date is before the start date.').waitFor();
  await form.getByLabel('From (UTC day)').fill(day(-3));
  await form.getByRole('button', { name: 'Apply filters' }).click();
  await page.getByText('No event matches these filters.').waitFor();

  // Pages of ten, through the API's cursors, to the end (once the cleared filters are back in the form).
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await shownSequences(page, trail.length);
  await form.getByLabel('Events per page').selectOption('10');
  await form.getByRole('button', { name: 'Apply filters' }).click();
  await shownSequences(page, 10);
  await page.getByRole('button', { name: 'Load more' }).click();
  await shownSequences(page, 20);
  await page.getByRole('button', { name: 'Load more' }).click();
  await expectShown(page, trail);
  const end = page.getByText('That is every matching event.');
  await end.waitFor();
  assert.equal(await end.evaluate((element) => element === document.activeElement), true, 'focus moves to the end of the list');
  assert.equal(await page.getByRole('button', { name: 'Load more' }).count(), 0);
  await assertAccessible(page, 'audit trail, paged');
  await session.finish('audit-trail');
});

test('both exports are saved as files holding what the API exports', async () => {
  const session = await harness.signedIn('acme', 'admin', '/audit');
  const { page } = session;
  await shownSequences(page, trail.length);

  const json = await download(page, 'Download JSON');
  assert.equal(json.download.suggestedFilename(), 'audit-acme-last-30-days-enterprise_v1.json');
  const fromApi = (await apiExport({ format: 'json' })).body;
  const saved = JSON.parse(json.bytes.toString('utf8'));
  assert.equal(saved.profile, 'enterprise_v1');
  assert.equal(saved.events.length, trail.length);
  const { generated_at: _savedAt, ...savedRest } = saved;
  const { generated_at: _apiAt, ...apiRest } = fromApi;
  assert.deepEqual(savedRest, apiRest);

  await page.getByRole('radio', { name: /As stored \(raw\)/ }).check();
  const csv = await download(page, 'Download CSV');
  assert.equal(csv.download.suggestedFilename(), 'audit-acme-last-30-days-raw.csv');
  assert.equal(csv.bytes.toString('utf8'), (await apiExport({ format: 'csv', profile: 'raw' })).text);
  assert.equal(csv.bytes.toString('utf8').split('\r\n').filter(Boolean).length, trail.length + 1, 'a header and a row per event');

  // With dates, the file says which.
  const form = page.getByRole('form', { name: 'Filter the trail' });
  await form.getByLabel('From (UTC day)').fill(day(-1));
  await form.getByLabel('To (UTC day)').fill(day(0));
  await form.getByRole('button', { name: 'Apply filters' }).click();
  await shownSequences(page, trail.length);
  const dated = await download(page, 'Download CSV');
  assert.equal(dated.download.suggestedFilename(), `audit-acme-${day(-1)}-to-${day(0)}-raw.csv`);
  assert.equal(
    dated.bytes.toString('utf8'),
    (await apiExport({ format: 'csv', profile: 'raw', date_from: day(-1), date_to: day(0) })).text,
  );
  await session.finish('audit-exports');
});

test('a viewer, a user and a tenant without the audit trail see the API refuse, and nothing else', async () => {
  for (const role of ['viewer', 'user'] as const) {
    const session = await harness.signedIn('acme', role, '/audit', { viewport: phone });
    const { page } = session;
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match((await alert.textContent()) ?? '', new RegExp(`Forbidden.*needs the admin role; the caller has ${role}`));
    assert.equal(await page.getByRole('button', { name: 'Verify the chain' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Download JSON' }).count(), 0);
    await assertAccessible(page, `audit as ${role}`);
    await assertFitsWidth(page, `audit as ${role}`);
    await session.finish(`audit-refused-${role}`);
  }
  const globex = await harness.signedIn('globex', 'admin', '/audit');
  await globex.page.getByRole('alert').getByText('The audit_trail feature is not enabled for this tenant.').waitFor();
  await globex.finish('audit-refused-globex');
});

test('the chain verifies intact over the whole trail, then shows where an event changed in the store breaks it (phone, dark)', async () => {
  const session = await harness.signedIn('acme', 'admin', '/audit', { viewport: phone, colorScheme: 'dark' });
  const { page } = session;
  await shownSequences(page, trail.length);
  await page.getByRole('button', { name: 'Verify the chain' }).click();
  const intact = page.getByText(`The chain is intact over ${trail.length} events (events no. 1 to ${trail.length}), of the whole trail.`);
  await intact.waitFor();
  await assertAccessible(page, 'audit chain intact');
  await assertFitsWidth(page, 'audit chain intact');

  // Change one stored event's facts, keeping it valid for the contract: only its hash can tell.
  const victim = trail.filter((event) => event.kind === 'validation_created')[3]!;
  const audit = harness.server.cosmos.container('audit' as never);
  const { resource } = await audit.item(victim.event_id, 'acme').read<{ event: AuditEvent & { data: { issue_count: number } } }>();
  assert.ok(resource, 'the event is stored under its id');
  resource.event.data.issue_count += 1;
  await audit.item(victim.event_id, 'acme').replace(resource);

  await page.getByRole('button', { name: 'Verify the chain' }).click();
  const broken = page.locator('.chain-broken');
  await broken.waitFor();
  const text = (await broken.textContent()) ?? '';
  assert.match(
    text,
    new RegExp(`The chain breaks at event no\\. ${victim.sequence}, position ${victim.sequence} of the events of the whole trail\\.`),
  );
  assert.match(text, new RegExp(`The ${victim.sequence - 1} events before it are intact\\.`));
  assert.ok(text.includes(victim.event_id), 'names the event');
  assert.ok(text.includes(victim.hash), 'shows the hash the event was written with');
  assert.match(text, /changed after it was written/);
  assert.equal(await broken.getAttribute('role'), 'alert');

  // From a start date the check covers that range only, and says so.
  const form = page.getByRole('form', { name: 'Filter the trail' });
  await form.getByLabel('From (UTC day)').fill(day(-1));
  await form.getByRole('button', { name: 'Apply filters' }).click();
  await shownSequences(page, trail.length);
  await page.getByRole('button', { name: 'Verify the chain' }).click();
  await page
    .getByText(
      new RegExp(
        `The chain breaks at event no\\. ${victim.sequence}, position ${victim.sequence} of the events from ${day(-1)} \\(UTC\\) on\\.`,
      ),
    )
    .waitFor();
  await assertAccessible(page, 'audit chain broken');
  await assertFitsWidth(page, 'audit chain broken');
  await session.finish('audit-chain-broken-phone-dark');
});
