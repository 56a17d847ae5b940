// Check an answer in the browser: a contradicted claim marked with its evidence in the source text,
// the corrected answer as a change against the original, a generated answer with its sources, by
// mouse and by keyboard, at desktop and phone widths.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { assertAccessible, assertFitsWidth, ConsoleHarness, phone } from './support/console-browser.js';

const source = 'Members may borrow up to 5 books at a time. Each loan lasts 21 days and can be renewed once online.';
const question = 'How many books can I borrow, and for how long?';
const wrongAnswer = 'You can borrow up to 12 books at a time. Loans last 21 days.';

let harness: ConsoleHarness;
before(async () => {
  harness = await ConsoleHarness.start();
});
after(() => harness?.close());

async function fillCheck(page: Page, mode: string, answer?: string) {
  await page.getByRole('radio', { name: mode, exact: true }).check();
  await page.getByLabel('Question').fill(question);
  if (answer !== undefined) await page.getByLabel('Answer to check').fill(answer);
  await page.getByLabel('Source text').fill(source);
}

test('a contradicted claim is marked, and choosing it shows the passage that contradicts it in the source', async () => {
  const session = await harness.signedIn('acme', 'user', '/check');
  const { page } = session;
  await page.getByRole('heading', { name: 'Check an answer' }).waitFor();
  await assertAccessible(page, 'check form');
  await fillCheck(page, 'Validate', wrongAnswer);
  await page.getByRole('button', { name: 'Check the answer' }).click();
  const wrong = page.getByRole('button', { name: /12 books at a time \(contradicted\)/ });
  await wrong.waitFor();
  await wrong.hover();
  const details = page.getByRole('region', { name: 'Claim details' });
  await details.getByText('Contradicts the claim').waitFor();
  // The deployment's default verifier: the checks decide, the shipped model weighs in the score.
  await details.getByText(/decided by the checks with the entailment model/).waitFor();
  assert.equal(await details.locator('mark.evidence').first().textContent(), 'Members may borrow up to 5 books at a time.');
  // The evidence is shown in its source: the words after the span are there too.
  assert.match((await details.locator('blockquote').first().textContent())!, /renewed once online/);
  const right = page.getByRole('button', { name: /Loans last 21 days \(supported\)/ });
  await right.hover();
  await details.getByText('Supports the claim').first().waitFor();
  await assertAccessible(page, 'check result');
  await session.finish('check-validate');
});

test('the keyboard reaches each claim, and focus shows its details', async () => {
  const session = await harness.signedIn('acme', 'user', '/check');
  const { page } = session;
  await fillCheck(page, 'Validate', wrongAnswer);
  await page.getByLabel('URLs, one per line').focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  const wrong = page.getByRole('button', { name: /12 books at a time \(contradicted\)/ });
  await wrong.waitFor();
  // Focus moves to the result; Tab goes to the first claim, then the second.
  await page.keyboard.press('Tab');
  assert.match((await page.evaluate(() => document.activeElement?.textContent)) ?? '', /12 books/);
  await page.keyboard.press('Tab');
  assert.match((await page.evaluate(() => document.activeElement?.textContent)) ?? '', /Loans last 21 days/);
  const details = page.getByRole('region', { name: 'Claim details' });
  await details.getByText('Supports the claim').first().waitFor();
  await session.finish('check-keyboard');
});

test('validate and fix shows the corrected answer as a change against the original', async () => {
  const session = await harness.signedIn('acme', 'user', '/check', { viewport: phone });
  const { page } = session;
  await fillCheck(page, 'Validate and fix', wrongAnswer);
  await page.getByRole('button', { name: 'Check the answer' }).click();
  await page.getByRole('heading', { name: 'Corrected answer' }).waitFor();
  assert.equal(await page.locator('del.diff').first().textContent(), 'removed: 12');
  assert.equal(await page.locator('ins.diff').first().textContent(), 'added: 5');
  await assertFitsWidth(page, 'check result at 360 px');
  await assertAccessible(page, 'check result, fixed');
  await session.finish('check-fix-phone');
});

test('generate shows the answer with the sources it cites; a viewer is told why the screen is not theirs', async () => {
  const session = await harness.signedIn('acme', 'admin', '/check', { colorScheme: 'dark' });
  const { page } = session;
  await fillCheck(page, 'Generate');
  await expectNoAnswerField(page);
  await page.getByRole('button', { name: 'Generate and check' }).click();
  await page.getByRole('heading', { name: 'Generated answer' }).waitFor();
  await page.getByRole('heading', { name: 'Cited sources' }).waitFor();
  await assertAccessible(page, 'generated answer, dark');
  await session.finish('check-generate-dark');

  const viewer = await harness.signedIn('acme', 'viewer', '/check');
  await viewer.page.getByText('Checking answers needs the user or admin role').waitFor();
  await viewer.finish('check-viewer');
});

test('a check without any source is refused in the form, before anything is sent', async () => {
  const session = await harness.signedIn('acme', 'user', '/check');
  const { page } = session;
  let validations = 0;
  page.on('request', (request) => {
    if (request.url().endsWith('/api/v1/validate')) validations += 1;
  });
  await page.getByLabel('Question').fill(question);
  await page.getByLabel('Answer to check').fill(wrongAnswer);
  await page.getByRole('button', { name: 'Check the answer' }).click();
  await page.getByText('Give at least one source').waitFor();
  assert.equal(validations, 0);
  await session.finish('check-no-source');
});

async function expectNoAnswerField(page: Page) {
  assert.equal(await page.getByLabel('Answer to check').count(), 0);
}
