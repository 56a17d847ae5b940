// The dashboard and the system card: counters, a chosen range's charts with their tables, the CSV
// download, the operating point for administrators, and the system card, against the API's own answers.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { writeFixture } from '../../server/test/support/fixtures.js';
import { question, review, validateInline } from '../../server/test/support/history.js';
import { assertAccessible, assertFitsWidth, ConsoleHarness, phone, signIn } from './support/console-browser.js';

let harness: ConsoleHarness;
let viewerToken: string;
/** The week ending today (UTC), the range the tests pick. */
const range = { date_from: utcDay(-6), date_to: utcDay(0) };

function utcDay(offset: number): string {
  return new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
}

before(async () => {
  // Answers with issues wait for review, so that the reviews and the engine's agreement have figures.
  harness = await ConsoleHarness.start({
    fixture: await writeFixture({ overrides: { acme: { workflow: { review_required: 'when_issues' } } } }),
  });
  const user = { token: await harness.server.login('acme', 'user') };
  await validateInline(harness.server, user, { issues: false });
  const rejected = await validateInline(harness.server, user, { issues: true });
  await validateInline(harness.server, user, { issues: true });
  const decided = await review(harness.server, user, rejected.validation_id, { action: 'reject', note: `Wrong: ${question}` });
  assert.equal(decided.status, 200, decided.text);
  viewerToken = await harness.server.login('acme', 'viewer');
});
after(() => harness?.close());

async function apiCall(path: string, body: object = {}) {
  const reply = await harness.server.call(path, body, { token: viewerToken });
  assert.equal(reply.status, 200, reply.text);
  return reply;
}

/** The text of each body row of a table: its header cell, then its data cells. */
function rowsOf(table: Locator): Promise<string[][]> {
  return table
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((row) => Array.from(row.querySelectorAll('th, td'), (cell) => cell.textContent!.trim())));
}

/** The data cells of the row whose header reads `header`. */
async function rowCells(table: Locator, header: string): Promise<string[]> {
  const row = (await rowsOf(table)).find(([name]) => name === header);
  assert.ok(row, `a row "${header}"`);
  return row.slice(1);
}

/** The value a definition list gives for `term`. */
function definitionOf(page: Page, term: string): Promise<string> {
  return page
    .locator('dl > div')
    .filter({ has: page.locator('dt', { hasText: new RegExp(`^${term}$`) }) })
    .locator('dd')
    .first()
    .innerText();
}

async function pickRange(page: Page) {
  await page.getByLabel('From').fill(range.date_from);
  await page.getByLabel('To').fill(range.date_to);
  await page.getByRole('button', { name: 'Show' }).click();
  await page.locator(`time[datetime="${range.date_from}"]`).waitFor();
  await page.getByRole('figure', { name: 'Validations per day' }).locator('.recharts-wrapper > svg').waitFor();
}

test('a viewer picks a range and reads its counters, charts and tables as the API gives them, and downloads its CSV', async () => {
  const [stats, analytics, csv] = await Promise.all([
    apiCall('/api/v1/stats'),
    apiCall('/api/v1/analytics', range),
    apiCall('/api/v1/analytics/csv', range),
  ]);
  assert.ok(analytics.body.totals.validations >= 3, 'the seeded validations are in the range');
  const session = await harness.signedIn('acme', 'viewer', '/dashboard');
  const { page } = session;
  await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  await page.getByRole('heading', { name: 'Validations', level: 3 }).waitFor();
  assert.equal(await definitionOf(page, 'This month'), String(stats.body.validations.this_month));
  assert.equal(await definitionOf(page, 'In retained history'), String(stats.body.validations.total));

  await pickRange(page);
  assert.equal(new URL(page.url()).search, `?from=${range.date_from}&to=${range.date_to}`);
  for (const name of ['Validations per day', 'Findings by category', 'Validations by review state']) {
    const figure = page.getByRole('figure', { name });
    assert.ok((await figure.locator('.recharts-wrapper > svg').count()) === 1, `${name} is drawn`);
    await figure.getByText(`${name} as a table`).click();
    await figure.getByRole('table').waitFor();
  }

  const daily = await rowsOf(page.getByRole('figure', { name: 'Validations per day' }).getByRole('table'));
  assert.deepEqual(
    daily.map((row) => row.slice(1)),
    analytics.body.daily.map((day: any) => [day.validations - day.with_issues, day.with_issues, day.validations].map(String)),
  );
  const categories = page.getByRole('figure', { name: 'Findings by category' }).getByRole('table');
  assert.deepEqual(await rowCells(categories, 'Contradicted claim'), [String(analytics.body.by_category.contradicted_claim)]);
  const findings = (await rowsOf(categories)).reduce((sum, row) => sum + Number(row[1]), 0);
  assert.equal(
    findings,
    Object.values<number>(analytics.body.by_category).reduce((sum, value) => sum + value, 0),
  );
  const states = page.getByRole('figure', { name: 'Validations by review state' }).getByRole('table');
  assert.deepEqual(await rowCells(states, 'Rejected'), [String(analytics.body.reviews.rejected)]);
  assert.deepEqual(await rowCells(states, 'Pending review'), [String(analytics.body.reviews.pending_review)]);

  const agreement = analytics.body.engine_agreement;
  assert.ok(agreement.decisions >= 1 && agreement.flagged_wrong >= 1, JSON.stringify(agreement));
  const confusion = page.getByRole('table', { name: 'Verdicts on decided reviews' });
  assert.deepEqual(await rowCells(confusion, 'Engine flagged'), [agreement.flagged_wrong, agreement.flagged_right].map(String));
  assert.deepEqual(await rowCells(confusion, 'Engine did not flag'), [agreement.unflagged_wrong, agreement.unflagged_right].map(String));
  assert.equal(await definitionOf(page, 'Decided reviews counted'), String(agreement.decisions));
  assert.equal(await definitionOf(page, 'Decisions'), String(analytics.body.time_to_decision.decisions));
  assert.equal(await page.getByRole('heading', { name: 'Operating point fitted to your reviews' }).count(), 0, 'for administrators only');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
  assert.equal(download.suggestedFilename(), `analytics-acme-${range.date_from}-${range.date_to}.csv`);
  const saved = readFileSync(await download.path(), 'utf8');
  assert.match(saved, /^date,validations,with_issues,/);
  assert.equal(saved, csv.text);
  await page.getByText(`Saved ${download.suggestedFilename()}.`).waitFor();

  await assertAccessible(page, 'dashboard');
  await session.finish('dashboard');
});

test('the range form refuses a range the API would refuse, before asking it, and the address keeps the range', async () => {
  const session = await harness.signedIn('acme', 'viewer', '/dashboard');
  const { page } = session;
  await page.getByRole('figure', { name: 'Validations per day' }).waitFor();
  const before = page.url();
  await page.getByLabel('From').fill(range.date_to);
  await page.getByLabel('To').fill(range.date_from);
  await page.getByRole('button', { name: 'Show' }).click();
  await page.getByText('The last day comes before the first.').waitFor();
  assert.equal(await page.getByLabel('To').getAttribute('aria-invalid'), 'true');
  await page.getByLabel('From').fill('2020-01-01');
  await page.getByLabel('To').fill('2021-01-02');
  await page.getByLabel('To').press('Enter');
  await page.getByText('At most 366 days at a time.').waitFor();
  assert.equal(page.url(), before);
  // A range that the API takes, from the keyboard; the back button returns to the one before, fields and all.
  await page.getByLabel('From').fill(range.date_from);
  await page.getByLabel('To').fill(range.date_to);
  await page.getByLabel('To').press('Enter');
  await page.locator(`time[datetime="${range.date_from}"]`).waitFor();
  await page.goBack();
  await page.locator(`time[datetime="${utcDay(-29)}"]`).waitFor();
  assert.equal(await page.getByLabel('From').inputValue(), utcDay(-29));
  assert.equal(await page.getByLabel('To').inputValue(), utcDay(0));
  await session.finish('dashboard-range-refused');
});

test('an administrator also reads the operating point fitted to the reviews', async () => {
  const { body } = await apiCall('/api/v1/analytics', range);
  const session = await harness.signedIn('acme', 'admin', `/dashboard?from=${range.date_from}&to=${range.date_to}`);
  const { page } = session;
  await page.getByRole('heading', { name: 'Operating point fitted to your reviews' }).waitFor();
  assert.equal(Number(await definitionOf(page, 'Current supported score')), body.calibration.current_supported_score);
  assert.equal(await definitionOf(page, 'Decisions with a recorded risk'), String(body.calibration.decisions));
  await session.finish('dashboard-admin');
});

test('the dashboard fits a phone and reads in the dark scheme', async () => {
  const path = `/dashboard?from=${range.date_from}&to=${range.date_to}`;
  const small = await harness.signedIn('acme', 'viewer', path, { viewport: phone });
  await small.page.getByRole('figure', { name: 'Validations per day' }).locator('.recharts-wrapper > svg').waitFor();
  for (const summary of await small.page.locator('summary').all()) await summary.click();
  await assertFitsWidth(small.page, 'dashboard at 360 px');
  const overflowing = await small.page
    .locator('.table-wrap')
    .evaluateAll((wraps) => wraps.filter((wrap) => wrap.scrollWidth > wrap.clientWidth).length);
  assert.equal(overflowing, 0, 'every table fits the phone without scrolling sideways');
  await assertAccessible(small.page, 'dashboard at 360 px');
  await small.finish('dashboard-phone');

  const dark = await harness.signedIn('acme', 'viewer', path, { colorScheme: 'dark' });
  await dark.page.getByRole('figure', { name: 'Validations per day' }).locator('.recharts-wrapper > svg').waitFor();
  const background = await dark.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(background, 'rgb(21, 24, 22)', 'the dark scheme applies');
  await assertAccessible(dark.page, 'dashboard in the dark scheme');
  await dark.finish('dashboard-dark');
});

test('the charts come with the dashboard, not with the first load', async () => {
  const session = await harness.open('/sign-in');
  const { page } = session;
  const scripts: string[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.push(response.url());
  });
  await page.reload();
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  const drawsCharts = async (urls: string[]) => {
    const texts = await Promise.all(urls.map(async (url) => await (await fetch(url)).text()));
    return texts.some((text) => text.includes('recharts-surface'));
  };
  const firstLoad = [...scripts];
  assert.ok(firstLoad.length > 0);
  assert.equal(await drawsCharts(firstLoad), false, 'the first load carries no chart code');
  await signIn(page, 'acme', 'viewer');
  await page.getByRole('figure', { name: 'Validations per day' }).locator('.recharts-wrapper > svg').waitFor();
  assert.equal(await drawsCharts(scripts.filter((url) => !firstLoad.includes(url))), true, 'the dashboard brought it');
  await session.finish('dashboard-lazy');
});

test('the system card shows what the API says, readably, at any width', async () => {
  const { body: card } = await apiCall('/api/v1/system-card');
  const session = await harness.signedIn('acme', 'viewer', '/system');
  const { page } = session;
  await page.getByRole('heading', { name: 'Validation method' }).waitFor();
  assert.equal(await definitionOf(page, 'Engine version'), card.validation_method.version);
  // The deployment's default verifier, named and described.
  assert.equal(await definitionOf(page, 'Verifier'), 'Local entailment model (onnx)');
  assert.equal(await definitionOf(page, 'What the verifier does'), card.validation_method.verifier.description);
  assert.equal(await definitionOf(page, 'Version'), card.service.version);
  assert.equal(Number(await definitionOf(page, 'Supported score')), card.operating_point.supported_score);
  assert.equal(await definitionOf(page, 'Region'), card.region);
  await page.getByText(card.known_limitations[0]).waitFor();
  assert.equal(await page.locator('pre').count(), 0, 'no raw JSON');
  await assertAccessible(page, 'system card');
  await page.setViewportSize(phone);
  await assertFitsWidth(page, 'system card at 360 px');
  await session.finish('system-card-phone');

  // Without the audit trail there is no system card to read: the page says so instead of failing.
  const globex = await harness.signedIn('globex', 'viewer', '/system');
  await globex.page.getByText('The system card comes with the audit trail').waitFor();
  assert.equal(await globex.page.getByRole('alert').count(), 0);
  await globex.finish('system-card-without-audit-trail');
});
