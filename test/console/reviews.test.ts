// The review screens in Chromium against the real server, acme's workflow sending every validation
// to review: the queue filtered and paged through the URL, each review action through its dialog,
// a race lost to another reviewer, what a viewer sees, a case reviewed by keyboard alone, a case
// recorded before the history kept claims, and the screens at 360 px.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ValidationRecord, ValidationResult } from '@groundcheck/contract';
import type { Page } from 'playwright-core';
import { day, tenantsOf } from '../../server/test/support/audit.js';
import { writeFixture } from '../../server/test/support/fixtures.js';
import { recordValidation, validateInline } from '../../server/test/support/history.js';
import { assertAccessible, assertFitsWidth, ConsoleHarness, phone } from './support/console-browser.js';

let harness: ConsoleHarness;
let userToken: string;

before(async () => {
  const fixture = await writeFixture({ overrides: { acme: { workflow: { review_required: 'always' } } } });
  harness = await ConsoleHarness.start({ fixture });
  userToken = await harness.server.login('acme', 'user');
});
after(() => harness?.close());

/** A validation the user makes through the API: pending review, low confidence with an issue, high without. */
async function pendingCase(issues = true): Promise<ValidationResult> {
  const result = await validateInline(harness.server, { token: userToken }, { issues });
  assert.equal(result.review.state, 'pending_review');
  return result;
}

/** The record as the API has it now. */
async function recordOf(validationId: string): Promise<ValidationRecord> {
  const reply = await harness.server.call('/api/v1/history', { validation_id: validationId }, { token: userToken });
  assert.equal(reply.status, 200, reply.text);
  return reply.body.data[0];
}

/** Every id the history query matches, newest first. */
async function idsOf(query: object): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const reply = await harness.server.call(
      '/api/v1/history',
      { ...query, limit: 100, ...(cursor ? { cursor } : {}) },
      { token: userToken },
    );
    assert.equal(reply.status, 200, reply.text);
    ids.push(...reply.body.data.map((r: ValidationRecord) => r.validation_id));
    cursor = reply.body.next_cursor;
  } while (cursor);
  return ids;
}

/** The case ids the queue shows, in order, once the page has settled on its table or its empty notice. */
async function shownIds(page: Page): Promise<string[]> {
  await page.locator('section[aria-label="Cases"][aria-busy="false"]').waitFor();
  const hrefs = await page.locator('.queue-table tbody a').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  return hrefs.map((href) => href.split('/').at(-1)!);
}

async function waitForIds(page: Page, expected: string[]): Promise<void> {
  await page.waitForFunction((ids) => {
    const shown = Array.from(document.querySelectorAll('.queue-table tbody a')).map((a) => a.getAttribute('href')?.split('/').at(-1));
    return JSON.stringify(shown) === JSON.stringify(ids) || (ids.length === 0 && document.querySelector('.queue-table') === null);
  }, expected);
  assert.deepEqual(await shownIds(page), expected);
}

const caseUrl = (validationId: string) => `${harness.url}/reviews/${validationId}`;

async function openCase(page: Page, validationId: string): Promise<void> {
  await page.goto(caseUrl(validationId));
  await page.getByRole('heading', { name: 'Review case' }).waitFor();
  await page.getByRole('heading', { name: 'Review history' }).waitFor();
}

/** The focused element, as much of it as the keyboard test needs. */
interface Focused {
  tag: string;
  text: string;
  href: string;
  inDialog: boolean;
  classes: string[];
}

const focused = (page: Page): Promise<Focused> =>
  page.evaluate(() => {
    const element = document.activeElement;
    return {
      tag: element?.tagName ?? '',
      text: element?.textContent?.trim() ?? '',
      href: element?.getAttribute('href') ?? '',
      inDialog: element?.closest('dialog[open]') != null,
      classes: Array.from(element?.classList ?? []),
    };
  });

/** Presses Tab (or Shift+Tab) until the focused element is the one wanted; fails after `limit` presses. */
async function tabUntil(page: Page, wanted: (element: Focused) => boolean, key: 'Tab' | 'Shift+Tab' = 'Tab', limit = 80) {
  for (let i = 0; i < limit; i += 1) {
    await page.keyboard.press(key);
    if (wanted(await focused(page))) return;
  }
  assert.fail(`nothing wanted took focus after ${limit} presses of ${key}`);
}

test('the queue filters by state, confidence and days, keeps them in the URL, and pages with the cursors it was given', async () => {
  const low = [];
  for (let i = 0; i < 12; i += 1) low.push(await pendingCase(true));
  const high = [await pendingCase(false), await pendingCase(false)];
  assert.ok(high.every((r) => r.confidence_level === 'high') && low.every((r) => r.confidence_level === 'low'));
  const acme = tenantsOf(harness.server.fixture).acme!;
  const old = [
    await recordValidation(harness.server, acme, { createdAt: new Date(`${day(-10)}T09:00:00.000Z`), confidenceLevel: 'medium' }),
    await recordValidation(harness.server, acme, { createdAt: new Date(`${day(-40)}T09:00:00.000Z`), confidenceLevel: 'medium' }),
  ];

  const session = await harness.signedIn('acme', 'user', '/reviews');
  const { page } = session;
  await page.getByRole('heading', { name: 'Reviews' }).waitFor();
  // It opens on the queue: the cases pending review, newest first.
  assert.equal(await page.getByLabel('Review state').inputValue(), 'pending_review');
  await waitForIds(page, (await idsOf({ review_state: 'pending_review' })).slice(0, 25));
  await assertAccessible(page, 'the review queue');

  await page.getByLabel('Confidence').selectOption('low');
  await page.getByLabel('Cases per page').selectOption('10');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.waitForURL(/confidence_level=low/);
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('confidence_level'), 'low');
  assert.equal(url.searchParams.get('limit'), '10');
  const lowPending = await idsOf({ review_state: 'pending_review', confidence_level: 'low' });
  assert.ok(lowPending.length > 10 && lowPending.length <= 20, `${lowPending.length} low-confidence cases make two pages`);
  await waitForIds(page, lowPending.slice(0, 10));
  assert.equal(await page.getByRole('button', { name: 'Previous page' }).isDisabled(), true);

  await page.getByRole('button', { name: 'Next page' }).click();
  await waitForIds(page, lowPending.slice(10, 20));
  await page.getByText('Page 2', { exact: true }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Next page' }).isDisabled(), true, 'the last page');
  await page.getByRole('button', { name: 'Previous page' }).click();
  await waitForIds(page, lowPending.slice(0, 10));
  await page.getByText('Page 1', { exact: true }).waitFor();

  // A reload (or a shared link) shows the same filters and cases.
  await page.reload();
  await page.getByRole('heading', { name: 'Reviews' }).waitFor();
  assert.equal(await page.getByLabel('Confidence').inputValue(), 'low');
  assert.equal(await page.getByLabel('Cases per page').inputValue(), '10');
  await waitForIds(page, lowPending.slice(0, 10));

  // High confidence: the two validations whose answer the source supports, newest first.
  await page.getByLabel('Confidence').selectOption('high');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await waitForIds(page, [high[1]!.validation_id, high[0]!.validation_id]);

  // A range of days, in any state: only the two older cases.
  await page.getByLabel('Review state').selectOption('any');
  await page.getByLabel('Confidence').selectOption('any');
  await page.getByLabel('From (UTC day)').fill(day(-45));
  await page.getByLabel('To (UTC day)').fill(day(-5));
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.waitForURL(/date_from=/);
  assert.equal(new URL(page.url()).searchParams.get('review_state'), 'any');
  await waitForIds(page, [old[0]!.validation_id, old[1]!.validation_id]);
  await page.getByLabel('From (UTC day)').fill(day(-5));
  await page.getByLabel('To (UTC day)').fill(day(-45));
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.getByText('The last day comes before the first.').waitFor();
  assert.equal(new URL(page.url()).searchParams.get('date_from'), day(-45), 'a refused range does not change the URL');
  await assertAccessible(page, 'the review queue with an invalid range');

  // Back to the queue; the row's link opens the case, whose back link returns to the filters.
  await page.getByRole('button', { name: 'Back to the queue' }).click();
  await page.waitForURL((u) => u.search === '');
  await page.locator(`a[href$="/reviews/${low[11]!.validation_id}"]`).click();
  await page.getByRole('heading', { name: 'Review case' }).waitFor();
  await page.getByRole('link', { name: 'Back to the reviews' }).click();
  await page.getByRole('heading', { name: 'Reviews' }).waitFor();
  await session.finish('reviews-queue');
});

test('a user approves, rejects, edits with a correction per claim, and hands off, each through its dialog', async () => {
  const [approved, rejected, edited, handedOff] = [await pendingCase(), await pendingCase(), await pendingCase(), await pendingCase()];
  const session = await harness.signedIn('acme', 'user', `/reviews/${approved.validation_id}`);
  const { page } = session;
  await page.getByRole('heading', { name: 'Review history' }).waitFor();
  // The claims with their evidence, as the validation answered them.
  await page.getByRole('button', { name: /30 days of paid leave.*\(contradicted\)/ }).waitFor();
  await page.getByText('Full-time employees are entitled to 25 days of paid leave per calendar year.').first().waitFor();
  await page.getByText('No one has reviewed this case yet.').waitFor();
  await assertAccessible(page, 'a case pending review');

  // Escape closes a dialog and gives focus back to its button.
  const approve = page.getByRole('button', { name: 'Approve', exact: true });
  await approve.click();
  const approveDialog = page.getByRole('dialog', { name: 'Approve the answer' });
  await approveDialog.waitFor();
  assert.equal((await focused(page)).inDialog, true, 'focus moves into the dialog');
  await page.keyboard.press('Escape');
  await page.locator('dialog').waitFor({ state: 'detached' });
  assert.equal(await approve.evaluate((button) => button === document.activeElement), true, 'focus is back on Approve');

  // Approve: a note is required.
  await approve.click();
  await approveDialog.getByRole('button', { name: 'Approve' }).click();
  await approveDialog.getByText('Write the note.').waitFor();
  await assertAccessible(page, 'the approve dialog');
  await approveDialog.getByLabel('Note').fill('Checked against the 2026 handbook.');
  await approveDialog.getByRole('button', { name: 'Approve' }).click();
  await page.getByText('Saved: Approved. The case is now approved.').waitFor();
  await page.getByText('Approved by User of acme (user)').waitFor();
  assert.equal(await page.getByRole('button', { name: 'Approve', exact: true }).count(), 0, 'a decided case offers no action');
  let record = await recordOf(approved.validation_id);
  assert.equal(record.review.state, 'approved');
  assert.equal(record.review.history[0]!.note, 'Checked against the 2026 handbook.');

  // Reject: a note is required.
  await openCase(page, rejected.validation_id);
  await page.getByRole('button', { name: 'Reject', exact: true }).click();
  const rejectDialog = page.getByRole('dialog', { name: 'Reject the answer' });
  await rejectDialog.getByRole('button', { name: 'Reject' }).click();
  await rejectDialog.getByText('Write the note.').waitFor();
  await assertAccessible(page, 'the reject dialog');
  await rejectDialog.getByLabel('Note').fill('x'.repeat(2001));
  await rejectDialog.getByRole('button', { name: 'Reject' }).click();
  await rejectDialog.getByText('At most 2,000 characters.').waitFor();
  await rejectDialog.getByLabel('Note').fill('The handbook grants 25 days, not 30.');
  await rejectDialog.getByRole('button', { name: 'Reject' }).click();
  await page.getByText('Saved: Rejected. The case is now rejected.').waitFor();
  record = await recordOf(rejected.validation_id);
  assert.equal(record.review.state, 'rejected');
  assert.equal(record.review.history[0]!.note, 'The handbook grants 25 days, not 30.');

  // Edit: a note and at least one correction, each naming a claim (or the whole answer).
  await openCase(page, edited.validation_id);
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  const editDialog = page.getByRole('dialog', { name: 'Correct the answer' });
  await editDialog.waitFor();
  const first = editDialog.getByRole('group', { name: 'Correction 1' });
  assert.equal(await first.getByLabel('Claim').inputValue(), 'claim:0', 'starts on the contradicted claim');
  await editDialog.getByRole('button', { name: 'Save the corrections' }).click();
  await editDialog.getByText('Write the correction.').waitFor();
  await editDialog.getByText('Write the note.').waitFor();
  await assertAccessible(page, 'the edit dialog');
  await first.getByLabel('Correction', { exact: true }).selectOption('replace');
  await first.getByLabel('What it should say').fill('25 days, as the handbook says.');
  await editDialog.getByRole('button', { name: 'Add a correction' }).click();
  const second = editDialog.getByRole('group', { name: 'Correction 2' });
  assert.equal(await second.getByLabel('Claim').inputValue(), 'answer', 'the next correction names what is not yet corrected');
  await second.getByLabel('Correction', { exact: true }).selectOption('annotate');
  await second.getByLabel('What it should say').fill('Cite the 2026 handbook.');
  await editDialog.getByLabel('Note (required)', { exact: true }).fill('Corrected the leave entitlement.');
  await editDialog.getByRole('button', { name: 'Save the corrections' }).click();
  await page.getByText('Saved: Edited. The case is now edited.').waitFor();
  await page.getByText('25 days, as the handbook says.').waitFor();
  record = await recordOf(edited.validation_id);
  assert.equal(record.review.state, 'edited');
  assert.deepEqual(record.user_corrections, [
    { element: 'claim:0', action: 'replace', note: '25 days, as the handbook says.' },
    { element: 'answer', action: 'annotate', note: 'Cite the 2026 handbook.' },
  ]);

  // Hand off: the external reference is required, the note is not.
  await openCase(page, handedOff.validation_id);
  await page.getByRole('button', { name: 'Hand off', exact: true }).click();
  const handoffDialog = page.getByRole('dialog', { name: 'Hand off to an external review' });
  await handoffDialog.getByLabel('Note').waitFor();
  await handoffDialog.getByRole('button', { name: 'Hand off' }).click();
  await handoffDialog.getByText('Write the external reference.').waitFor();
  assert.equal(await handoffDialog.getByText('Write the note.').count(), 0, 'the note is optional');
  await assertAccessible(page, 'the hand-off dialog');
  await handoffDialog.getByLabel('External reference').fill('SNOW-CHG0042137');
  await handoffDialog.getByRole('button', { name: 'Hand off' }).click();
  await page.getByText('Saved: Handed off. The case is now handed off.').waitFor();
  record = await recordOf(handedOff.validation_id);
  assert.equal(record.review.state, 'handed_off');
  assert.equal(record.review.history[0]!.external_reference, 'SNOW-CHG0042137');
  // Handed off, the case offers only the external decision, the reference filled in.
  await page.getByRole('button', { name: 'Record external approval' }).waitFor();
  for (const gone of ['Approve', 'Reject', 'Edit', 'Hand off'])
    assert.equal(await page.getByRole('button', { name: gone, exact: true }).count(), 0, `${gone} is not offered`);
  await page.getByRole('button', { name: 'Record external approval' }).click();
  const external = page.getByRole('dialog', { name: 'Record the external approval' });
  assert.equal(await external.getByLabel('External reference').inputValue(), 'SNOW-CHG0042137');
  await assertAccessible(page, 'the external decision dialog');
  await external.getByRole('button', { name: 'Record the approval' }).click();
  await page.getByText('Saved: Recorded the external approval. The case is now approved externally.').waitFor();
  assert.equal((await recordOf(handedOff.validation_id)).review.state, 'external_approved');
  await session.finish('reviews-actions');
});

test('two reviewers on one case: the second is told plainly that someone else decided first, and sees that decision', async () => {
  const contested = await pendingCase();
  const first = await harness.signedIn('acme', 'user', `/reviews/${contested.validation_id}`);
  const second = await harness.signedIn('acme', 'admin', `/reviews/${contested.validation_id}`);
  await first.page.getByRole('button', { name: 'Approve', exact: true }).waitFor();
  await second.page.getByRole('button', { name: 'Reject', exact: true }).click();
  const dialog = second.page.getByRole('dialog', { name: 'Reject the answer' });
  await dialog.getByLabel('Note').fill('Not what the handbook says.');

  await first.page.getByRole('button', { name: 'Approve', exact: true }).click();
  await first.page.getByRole('dialog', { name: 'Approve the answer' }).getByLabel('Note').fill('Fine as it is.');
  await first.page.getByRole('dialog', { name: 'Approve the answer' }).getByRole('button', { name: 'Approve' }).click();
  await first.page.getByText('Saved: Approved.').waitFor();

  await dialog.getByRole('button', { name: 'Reject' }).click();
  const alert = second.page.getByRole('alert');
  await alert.getByText('Someone else decided this case first.').waitFor();
  await alert.getByText('Approved by User of acme (user)').waitFor();
  await alert.getByText('“Fine as it is.”').waitFor();
  assert.equal(await alert.evaluate((node) => node.parentElement === document.activeElement), true, 'focus is on the message');
  await second.page.getByRole('button', { name: 'Reject', exact: true }).waitFor({ state: 'detached' });
  const record = await recordOf(contested.validation_id);
  assert.equal(record.review.state, 'approved');
  assert.equal(record.review.history.length, 1, 'the second decision changed nothing');
  await assertAccessible(second.page, 'a case lost to another reviewer');
  await first.finish('reviews-race-winner');
  await second.finish('reviews-race-lost');
});

test('a viewer sees the queue and a case, and no review action', async () => {
  const shown = await pendingCase();
  const session = await harness.signedIn('acme', 'viewer', '/reviews');
  const { page } = session;
  await page.locator(`a[href$="/reviews/${shown.validation_id}"]`).click();
  await page.getByRole('heading', { name: 'Review history' }).waitFor();
  await page.getByText('You can read this case; reviewing it needs the user or admin role.').waitFor();
  await page.getByRole('button', { name: /\(contradicted\)/ }).waitFor();
  for (const action of ['Approve', 'Reject', 'Edit', 'Hand off'])
    assert.equal(await page.getByRole('button', { name: action, exact: true }).count(), 0, `no ${action} for a viewer`);
  await assertAccessible(page, 'a case as a viewer');
  await session.finish('reviews-viewer-case');
});

test('a case reviewed with the keyboard alone: from the queue, through the dialog, to the decision', async () => {
  const target = await pendingCase();
  const session = await harness.signedIn('acme', 'user', '/reviews');
  const { page } = session;
  await page.locator(`a[href$="/reviews/${target.validation_id}"]`).waitFor();
  await tabUntil(page, (element) => element.href.endsWith(target.validation_id));
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Review history' }).waitFor();
  assert.equal((await focused(page)).tag, 'H1', 'the case starts at its heading');

  const isApprove = (element: Focused) => element.tag === 'BUTTON' && element.text === 'Approve' && !element.inDialog;
  await tabUntil(page, isApprove);
  await page.keyboard.press('Space');
  const dialog = page.getByRole('dialog', { name: 'Approve the answer' });
  await dialog.waitFor();
  assert.equal((await focused(page)).inDialog, true, 'focus moves into the dialog');
  // Escape, and the dialog opens again from the button focus came back to.
  await page.keyboard.press('Escape');
  await page.locator('dialog').waitFor({ state: 'detached' });
  assert.equal(isApprove(await focused(page)), true, 'focus is back on Approve');
  await page.keyboard.press('Enter');
  await dialog.waitFor();
  assert.equal((await focused(page)).tag, 'TEXTAREA', 'the note has focus');
  await page.keyboard.type('Approved from the keyboard.');
  // On past the submit button to Cancel, then back to it.
  await tabUntil(page, (element) => element.inDialog && element.text === 'Cancel');
  await tabUntil(page, (element) => element.inDialog && element.text === 'Approve', 'Shift+Tab');
  await page.keyboard.press('Enter');
  await page.getByText('Saved: Approved. The case is now approved.').waitFor();
  await page.getByText('“Approved from the keyboard.”').waitFor();
  assert.ok((await focused(page)).classes.includes('case-outcome'), 'focus is on the decision');
  const record = await recordOf(target.validation_id);
  assert.equal(record.review.state, 'approved');
  assert.equal(record.review.history[0]!.note, 'Approved from the keyboard.');
  await session.finish('reviews-keyboard');
});

test('a case recorded before the history kept claims shows its findings and the start of its answer', async () => {
  const older = await pendingCase();
  await harness.server.cosmos
    .container('history')
    .item(older.validation_id, 'acme')
    .patch([
      { op: 'remove', path: '/output' },
      { op: 'remove', path: '/claims' },
      { op: 'remove', path: '/sources' },
    ]);
  const record = await recordOf(older.validation_id);
  assert.equal('claims' in record, false, 'the API shows no claims for it');
  const session = await harness.signedIn('acme', 'user', `/reviews/${older.validation_id}`);
  const { page } = session;
  await page.getByText('This case was recorded before the history kept answers whole').waitFor();
  await page.getByText(record.output_excerpt).first().waitFor();
  await page.getByText(record.findings![0]!.title).first().waitFor();
  // Its corrections name the claims its findings name.
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  const options = await page.getByRole('dialog').getByLabel('Claim').locator('option').allTextContents();
  assert.deepEqual(options, [`Claim 1: ${record.findings![0]!.title}`, 'The answer as a whole']);
  await page.keyboard.press('Escape');
  await assertAccessible(page, 'a case without kept claims');
  await session.finish('reviews-older-case');
});

test('the queue and a case at 360 px, and a case in dark mode', async () => {
  const shown = await pendingCase();
  const queue = await harness.signedIn('acme', 'user', '/reviews', { viewport: phone });
  await queue.page.locator(`a[href$="/reviews/${shown.validation_id}"]`).waitFor();
  await assertFitsWidth(queue.page, 'the review queue');
  await queue.page.locator(`a[href$="/reviews/${shown.validation_id}"]`).click();
  await queue.page.getByRole('heading', { name: 'Review history' }).waitFor();
  await assertFitsWidth(queue.page, 'a case');
  await queue.page.getByRole('button', { name: 'Edit', exact: true }).click();
  await queue.page.getByRole('dialog', { name: 'Correct the answer' }).waitFor();
  await assertFitsWidth(queue.page, 'the edit dialog');
  await queue.finish('reviews-case-phone');
  const queueOnly = await harness.signedIn('acme', 'viewer', '/reviews', { viewport: phone });
  await queueOnly.page.locator(`a[href$="/reviews/${shown.validation_id}"]`).waitFor();
  await assertFitsWidth(queueOnly.page, 'the review queue');
  await queueOnly.finish('reviews-queue-phone');
  const dark = await harness.signedIn('acme', 'user', `/reviews/${shown.validation_id}`, { colorScheme: 'dark' });
  await dark.page.getByRole('heading', { name: 'Review history' }).waitFor();
  await assertAccessible(dark.page, 'a case in dark mode');
  await dark.finish('reviews-case-dark');
});
