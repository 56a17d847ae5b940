// The templates screen: an admin uploads a Word file with placeholders from the browser straight to
// storage, scans it, shapes its fields, activates it and deletes it; the problems a person can meet on
// the way are shown in words; an account without the feature gets the server's refusal, plainly.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { docxType, makeDocx } from '../../server/test/sources/fixtures.js';
import { assertAccessible, assertFitsWidth, ConsoleHarness, phone } from './support/console-browser.js';

let harness: ConsoleHarness;
let storageOrigin: string;
let adminToken: string;

before(async () => {
  harness = await ConsoleHarness.start();
  storageOrigin = harness.server.container.storage.browserOrigin;
  adminToken = await harness.server.login('acme', 'admin');
});
after(() => harness?.close());

const template = (page: Page, name: string) => page.getByRole('article', { name });

async function uploadThroughForm(page: Page, name: string, file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  const form = page.getByRole('region', { name: 'Add a template' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel(/^Template file/).setInputFiles(file);
  await form.getByRole('button', { name: 'Upload template' }).click();
  await page.getByRole('status').filter({ hasText: 'Template uploaded.' }).waitFor();
  const bar = form.getByRole('progressbar', { name: `Upload of ${file.name}` });
  assert.equal(await bar.evaluate((element) => (element as HTMLProgressElement).value === (element as HTMLProgressElement).max), true);
}

test('an admin uploads a template, scans it, shapes its fields, activates it and deletes it', async () => {
  const session = await harness.signedIn('acme', 'admin', '/templates', { allowedOrigins: [storageOrigin] });
  const { page } = session;
  const toStorage: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(`${storageOrigin}/`)) toStorage.push(request.method());
  });
  await page.getByText('No templates yet.').waitFor();
  await assertAccessible(page, 'templates, empty');

  const docx = await makeDocx({ body: ['Dear {{customer_name}},', 'You have {{leave_days}} days of paid leave.'] });
  await page.getByRole('region', { name: 'Add a template' }).getByLabel('Description').fill('Sent to new employees');
  await uploadThroughForm(page, 'Welcome letter', { name: 'welcome.docx', mimeType: docxType, buffer: Buffer.from(docx) });
  const card = template(page, 'Welcome letter');
  await card.getByText('Uploaded. Scan it to find its placeholders.').waitFor();
  await card.getByText('Sent to new employees').waitFor();
  await assertAccessible(page, 'templates, uploaded');

  await card.getByRole('button', { name: 'Scan', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'Welcome letter: 2 placeholders found.' }).waitFor();
  await card.getByText('customer_name (1×), leave_days (1×)').waitFor();
  await card.getByText('customer_name: string, required; leave_days: string, required').waitFor();

  await card.getByRole('button', { name: 'Edit fields' }).click();
  const leaveDays = card.getByRole('group', { name: 'leave_days' });
  await leaveDays.getByLabel('Type').selectOption('number');
  await leaveDays.getByLabel('Description').fill('Paid leave days per year');
  await card.getByRole('group', { name: 'customer_name' }).getByLabel('Required').uncheck();
  await assertAccessible(page, 'template fields form');
  await card.getByRole('button', { name: 'Save fields' }).click();
  await page.getByRole('status').filter({ hasText: 'The fields of Welcome letter are saved.' }).waitFor();
  await card.getByText('customer_name: string; leave_days: number, required').waitFor();

  await card.getByRole('button', { name: 'Activate' }).click();
  await page.getByRole('status').filter({ hasText: 'Welcome letter is active.' }).waitFor();
  await card.getByText('Scanned and active.').waitFor();
  const stored = (await harness.server.call('/api/v1/templates', {}, { token: adminToken })).body.data[0];
  assert.equal(stored.active, true);
  assert.deepEqual(stored.schema, {
    fields: [
      { name: 'customer_name', type: 'string', required: false },
      { name: 'leave_days', type: 'number', required: true, description: 'Paid leave days per year' },
    ],
  });
  await assertAccessible(page, 'templates, active');

  await card.getByRole('button', { name: 'Delete Welcome letter' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete Welcome letter?' });
  await confirm.waitFor();
  await assertAccessible(page, 'delete template dialog');
  await confirm.getByRole('button', { name: 'Delete template' }).click();
  await page.getByRole('status').filter({ hasText: 'Welcome letter deleted.' }).waitFor();
  assert.equal(await card.count(), 0);
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Templates', 'focus goes to the heading');
  assert.deepEqual(toStorage, ['PUT'], 'the one upload is the only request to storage');
  await session.finish('templates-admin');
  assert.deepEqual((await harness.server.call('/api/v1/templates', {}, { token: adminToken })).body.data, []);
});

test('the problems on the way are shown in words, at phone width too', async () => {
  // A template whose file never came: the scan is refused.
  const waiting = await harness.server.call(
    '/api/v1/templates/upload-url',
    { name: 'Never uploaded', file_name: 'never.md', content_type: 'text/markdown' },
    { token: adminToken },
  );
  assert.equal(waiting.status, 200, waiting.text);
  const session = await harness.signedIn('acme', 'admin', '/templates', { viewport: phone, allowedOrigins: [storageOrigin] });
  const { page } = session;
  const never = template(page, 'Never uploaded');
  await never.getByText('Waiting for the file.').waitFor();
  await never.getByRole('button', { name: 'Scan', exact: true }).click();
  await never.getByRole('alert').waitFor();
  await never.getByText('The file has not arrived, or it was rejected.').waitFor();

  // A file that starts like a Word file but is not one: it is stored, and the scan says it cannot read it.
  const broken = Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5, 6]);
  await uploadThroughForm(page, 'Broken letter', { name: 'broken.docx', mimeType: docxType, buffer: broken });
  const card = template(page, 'Broken letter');
  await card.getByText('Uploaded. Scan it to find its placeholders.').waitFor();
  await card.getByRole('button', { name: 'Scan', exact: true }).click();
  await card.getByRole('alert').waitFor();
  await card.getByText('The file could not be read as a template.').waitFor();

  // The form's own checks, before anything is sent.
  const form = page.getByRole('region', { name: 'Add a template' });
  await form.getByRole('button', { name: 'Upload template' }).click();
  await form.getByText('Enter a name.').waitFor();
  await form.getByText('Choose a file.').waitFor();
  await form
    .getByLabel(/^Template file/)
    .setInputFiles({ name: 'slides.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.7') });
  await form.getByRole('button', { name: 'Upload template' }).click();
  await form.getByText('“slides.pdf” is not a kind of file templates can be').waitFor();

  await assertAccessible(page, 'templates with problems');
  await assertFitsWidth(page, 'templates with problems');
  await session.finish('templates-problems-phone');
});

test('an account without document templates, or a person without the admin role, gets the refusal plainly on the typed address', async () => {
  for (const [options, name] of [
    [{ viewport: phone }, 'templates-globex-phone'],
    [{ colorScheme: 'dark' }, 'templates-globex-dark'],
  ] as const) {
    const session = await harness.signedIn('globex', 'admin', '/templates', options);
    const { page } = session;
    await page.getByRole('heading', { name: 'Templates', level: 1 }).waitFor();
    await page.getByRole('alert').filter({ hasText: 'The document_templates feature is not enabled for this tenant.' }).waitFor();
    await page.getByText('Document templates are not part of this account.').waitFor();
    assert.equal(await page.getByRole('region', { name: 'Add a template' }).count(), 0);
    assert.equal(await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Templates' }).count(), 0);
    await assertAccessible(page, 'templates refused');
    await assertFitsWidth(page, 'templates refused');
    await session.finish(name);
  }
  const user = await harness.signedIn('acme', 'user', '/templates');
  await user.page.getByRole('alert').filter({ hasText: 'This operation needs the admin role' }).waitFor();
  await user.page.getByText('Only admins manage document templates.').waitFor();
  await user.finish('templates-user');
});
