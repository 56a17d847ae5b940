// The sources screen: admins create a group, upload files from the browser straight to storage (the
// one origin besides the server that the page may call) and see the server's check of each, delete
// files and groups; viewers see the groups open to them, without the controls.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { uploadSourceFile } from '../../server/test/support/source-files.js';
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

/** Requests the page sends to storage, as `METHOD url`. */
function storageRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(`${storageOrigin}/`)) seen.push(`${request.method()} ${new URL(request.url()).pathname}`);
  });
  return seen;
}

async function createGroup(name: string, allowedRoles: string[]): Promise<string> {
  const reply = await harness.server.call('/api/v1/sources/group/save', { name, allowed_roles: allowedRoles }, { token: adminToken });
  assert.equal(reply.status, 200, reply.text);
  return reply.body.group_id;
}

/** The text of the element that has focus. */
const focused = (page: Page) => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');

test("the console's policy lets pages call the storage account that upload URLs point to", async () => {
  const response = await fetch(`${harness.url}/sources`);
  const connect = response.headers
    .get('content-security-policy')!
    .split('; ')
    .find((directive) => directive.startsWith('connect-src '));
  // The tenants' identity providers may be listed too, for sign-in.
  assert.ok(connect?.split(' ').slice(1).includes(storageOrigin), connect);
  assert.match(storageOrigin, /^http:\/\/127\.0\.0\.1:\d+$/, 'the embedded emulator, on loopback');
});

test('an admin creates a group, uploads files with progress and sees each check, deletes a file, then the group', async () => {
  const session = await harness.signedIn('acme', 'admin', '/sources', { allowedOrigins: [storageOrigin] });
  const { page } = session;
  const toStorage = storageRequests(page);
  await page.getByRole('heading', { name: 'Sources', level: 1 }).waitFor();
  await page.getByText('No source groups yet.').waitFor();
  await assertAccessible(page, 'sources, empty');

  await page.getByRole('button', { name: 'New group' }).click();
  const form = page.getByRole('dialog', { name: 'New source group' });
  await form.waitFor();
  assert.equal(await form.evaluate((dialog) => dialog.contains(document.activeElement)), true, 'focus moves into the dialog');
  await form.getByLabel('Name', { exact: true }).fill('HR policies');
  await form.getByLabel('Description').fill('Handbook and leave rules');
  await form.getByLabel('Data-access roles allowed to use it').fill('hr, managers');
  await form.getByRole('button', { name: 'Add an endpoint' }).click();
  const endpoint = form.getByRole('group', { name: 'Endpoint 1' });
  await endpoint.getByLabel('Name').fill('HR records API');
  await endpoint.getByLabel('URL').fill('https://hr-api.acme.example/search');
  await endpoint.getByLabel('The caller’s user id').check();
  await assertAccessible(page, 'new group dialog');
  await form.getByRole('button', { name: 'Create group' }).click();
  await page.getByRole('status').filter({ hasText: 'HR policies created.' }).waitFor();
  assert.equal(await form.count(), 0);
  assert.equal(await focused(page), 'New group', 'focus goes back to the button that opened the dialog');
  const group = page.getByRole('region', { name: 'HR policies' });
  await group.getByText('people with the data-access role hr or managers').waitFor();
  await group.getByText('Sends the caller’s user id.').waitFor();

  // A text file of a few hundred kilobytes: the bar moves, ends full, and the server's check follows.
  const text = Buffer.from('Employees get 25 days of paid leave per year.\n'.repeat(8000));
  await group.getByLabel('Add a file to HR policies').setInputFiles({ name: 'leave-policy.txt', mimeType: 'text/plain', buffer: text });
  await group.getByRole('button', { name: 'Upload' }).click();
  const bar = group.getByRole('progressbar', { name: 'Upload of leave-policy.txt' });
  await bar.waitFor();
  await group.getByRole('status').filter({ hasText: 'leave-policy.txt: ready for validations.' }).waitFor();
  assert.equal(await bar.evaluate((element) => (element as HTMLProgressElement).value === (element as HTMLProgressElement).max), true);
  await group.getByText('leave-policy.txt: uploaded').waitFor();
  const row = group.getByRole('row', { name: /leave-policy\.txt/ });
  await row.getByText('Ready').waitFor();
  await row.getByText('359 KB').waitFor();

  // A file whose bytes are not what its name says: the check rejects it, and says why.
  await group
    .getByLabel('Add a file to HR policies')
    .setInputFiles({ name: 'handbook.pdf', mimeType: 'application/pdf', buffer: Buffer.from('not a PDF') });
  await group.getByRole('button', { name: 'Upload' }).click();
  await group.getByRole('status').filter({ hasText: 'handbook.pdf: rejected, the content is not what its type says' }).waitFor();
  await group
    .getByRole('row', { name: /handbook\.pdf/ })
    .getByText('Rejected')
    .waitFor();
  await assertAccessible(page, 'sources, after uploads');

  await group.getByRole('button', { name: 'Delete leave-policy.txt' }).click();
  const confirmFile = page.getByRole('dialog', { name: 'Delete leave-policy.txt?' });
  await confirmFile.waitFor();
  assert.equal(await focused(page), 'Cancel', 'the harmless choice has focus');
  await assertAccessible(page, 'delete file dialog');
  await confirmFile.getByRole('button', { name: 'Delete file' }).click();
  await page.getByRole('status').filter({ hasText: 'leave-policy.txt deleted from HR policies.' }).waitFor();
  assert.equal(await group.getByRole('row', { name: /leave-policy\.txt/ }).count(), 0);

  await group.getByRole('button', { name: 'Delete HR policies' }).click();
  const confirmGroup = page.getByRole('dialog', { name: 'Delete HR policies?' });
  await confirmGroup.getByLabel('Also delete its file from storage').waitFor();
  await assertAccessible(page, 'delete group dialog');
  await confirmGroup.getByRole('button', { name: 'Delete group' }).click();
  await page.getByRole('status').filter({ hasText: 'HR policies deleted.' }).waitFor();
  assert.equal(await group.count(), 0);
  assert.equal(await focused(page), 'Sources', 'focus goes to the heading when the opener is gone');

  const [first, second] = toStorage;
  assert.equal(toStorage.length, 2, `only the two uploads go to storage: ${toStorage.join(', ')}`);
  assert.match(first!, /^PUT \/devstoreaccount1\/[^/]+\/tenants\/acme\/sources\/grp_\w+\/fil_\w+$/);
  assert.match(second!, /^PUT /);
  await session.finish('sources-admin');
  const left = await harness.server.call('/api/v1/sources', {}, { token: adminToken });
  assert.deepEqual(left.body.data, []);
});

test('an admin edits a group at phone width; the dialogs fit, check their fields, show refusals and close with Escape', async () => {
  const groupId = await createGroup('Finance', []);
  await createGroup('Legal', []);
  const session = await harness.signedIn('acme', 'admin', '/sources', { viewport: phone, allowedOrigins: [storageOrigin] });
  const { page } = session;
  const group = page.getByRole('region', { name: 'Finance' });
  await group.waitFor();
  await assertFitsWidth(page, 'sources as admin');

  await page.getByRole('button', { name: 'New group' }).click();
  const form = page.getByRole('dialog', { name: 'New source group' });
  await form.getByRole('button', { name: 'Create group' }).click();
  await form.getByText('Enter a name.').waitFor();
  await form.getByRole('textbox', { name: /^Name/ }).fill('Legal');
  await form.getByRole('button', { name: 'Add an endpoint' }).click();
  await form.getByRole('group', { name: 'Endpoint 1' }).getByLabel('Name').fill('Contracts');
  await form.getByRole('group', { name: 'Endpoint 1' }).getByLabel('URL').fill('ftp://contracts.example');
  await form.getByRole('button', { name: 'Create group' }).click();
  await form.getByText('Enter an http:// or https:// address.').waitFor();
  await form.getByRole('button', { name: 'Remove endpoint 1' }).click();
  await form.getByRole('button', { name: 'Create group' }).click();
  // The server's refusal, in the dialog: names are unique per account.
  await form.getByRole('alert').filter({ hasText: 'Another source group of this account has that name.' }).waitFor();
  await assertFitsWidth(page, 'new group dialog');
  await assertAccessible(page, 'new group dialog with a refusal');
  await page.keyboard.press('Escape');
  await form.waitFor({ state: 'detached' });
  assert.equal(await focused(page), 'New group');

  await group.getByRole('button', { name: 'Edit Finance' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Finance' });
  await edit.getByLabel('Description').fill('Budgets and expense rules');
  await edit.getByLabel('Data-access roles allowed to use it').fill('finance');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await page.getByRole('status').filter({ hasText: 'Finance saved.' }).waitFor();
  await group.getByText('Budgets and expense rules').waitFor();
  await group.getByText('people with the data-access role finance').waitFor();
  assert.equal(await focused(page), 'Edit');
  const saved = await harness.server.call('/api/v1/sources', {}, { token: adminToken });
  const finance = saved.body.data.find((g: { group_id: string }) => g.group_id === groupId);
  assert.deepEqual([finance.description, finance.allowed_roles, finance.endpoints], ['Budgets and expense rules', ['finance'], []]);
  await assertFitsWidth(page, 'sources as admin, edited');
  await session.finish('sources-admin-phone');
});

test('a viewer sees the groups open to them, with files and their checks, and no managing controls', async () => {
  const openId = await createGroup('Product manuals', []);
  await createGroup('Salaries', ['hr']);
  await uploadSourceFile(harness.server, adminToken, {
    groupId: openId,
    fileName: 'manual.md',
    contentType: 'text/markdown',
    bytes: new TextEncoder().encode('# Manual\nThe device runs for 12 hours.'),
  });
  for (const [options, name] of [
    [{ viewport: phone }, 'sources-viewer-phone'],
    [{ colorScheme: 'dark' }, 'sources-viewer-dark'],
  ] as const) {
    const session = await harness.signedIn('acme', 'viewer', '/sources', options);
    const { page } = session;
    const group = page.getByRole('region', { name: 'Product manuals' });
    await group
      .getByRole('row', { name: /manual\.md/ })
      .getByText('Ready')
      .waitFor();
    await group.getByText('everyone in the account').waitFor();
    assert.equal(await page.getByRole('region', { name: 'Salaries' }).count(), 0, 'a group for other roles is not listed');
    assert.equal(await page.getByRole('button').filter({ hasNotText: 'Sign out' }).count(), 0, 'no managing controls');
    assert.equal(await page.locator('input[type=file]').count(), 0);
    assert.equal(await page.getByRole('columnheader', { name: 'Manage' }).count(), 0);
    await assertAccessible(page, 'sources as viewer');
    await assertFitsWidth(page, 'sources as viewer');
    await session.finish(name);
  }
});
