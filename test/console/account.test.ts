// The account screen in Chromium against the real server: users added, changed, disabled, enabled and
// deleted through the dialogs with the API's refusals shown (email_taken, a common password,
// last_admin), the billing portal opened through a stand-in for Stripe on loopback or explained
// away where none is set up, the account export saved with the bytes the API streams, the API's
// refusal for a non-admin, and, last because it closes acme, the account deleted behind its typed
// confirmation, after which sign-in follows and refuses acme.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { User } from '@groundcheck/contract';
import type { Page } from 'playwright-core';
import { readZip } from '../../server/test/account/zip-reader.js';
import { type StripeStandIn, startStripeStandIn } from '../../server/test/saas/stripe-stand-in.js';
import { email, password, writeFixture } from '../../server/test/support/fixtures.js';
import { assertAccessible, assertFitsWidth, ConsoleHarness, desktop, phone, screenshots, signIn } from './support/console-browser.js';

const stripeKey = 'sk_test_51StandInKeyForGroundcheckConsole0123456789';
const portalOrigin = 'https://billing.stripe.com';
let standIn: StripeStandIn;
let harness: ConsoleHarness;
let adminToken: string;

before(async () => {
  standIn = await startStripeStandIn();
  const fixture = await writeFixture({ overrides: { acme: { billing: { stripe_customer_id: 'cus_StandInConsole0123' } } } });
  harness = await ConsoleHarness.start({ fixture, env: { STRIPE_SECRET_KEY: stripeKey }, stripeEndpoint: standIn.endpoint });
  adminToken = await harness.server.login('acme', 'admin');
});
after(async () => {
  await harness?.close();
  await standIn?.close();
});

async function usersOfAcme(): Promise<User[]> {
  const reply = await harness.server.call('/api/v1/saas/users', { limit: 100 }, { token: adminToken });
  assert.equal(reply.status, 200, reply.text);
  return reply.body.data;
}

const row = (page: Page, address: string) =>
  page.locator('tbody tr').filter({ has: page.getByRole('cell', { name: address, exact: true }) });

/** Waits until the element with focus has this text (a dialog hands focus back as its close event runs). */
async function focusComesTo(page: Page, text: string, why: string): Promise<void> {
  await page
    .waitForFunction((expected) => document.activeElement?.textContent?.trim() === expected, text, { timeout: 5000 })
    .catch(() => undefined);
  assert.equal(await page.evaluate(() => document.activeElement?.textContent?.trim() ?? ''), text, why);
}

test('an admin adds a user, changes its role, disables, enables and deletes it, and sees each refusal of the API', async () => {
  const session = await harness.signedIn('acme', 'admin', '/account');
  const { page } = session;
  await page.getByRole('heading', { name: 'Users' }).waitFor();
  for (const role of ['viewer', 'user', 'admin'] as const) await row(page, email('acme', role)).waitFor();
  assert.match((await row(page, email('acme', 'admin')).textContent()) ?? '', /\(you\)/);
  await assertAccessible(page, 'account');

  // Adding: the form's own checks, then the API's.
  await page.getByRole('button', { name: 'Add a user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a user' });
  await dialog.waitFor();
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('type')), 'email', 'focus starts in the dialog');
  await dialog.getByRole('button', { name: 'Add the user' }).click();
  await dialog.getByText('Enter the email address.').waitFor();
  await assertAccessible(page, 'add a user dialog');
  await dialog.getByLabel('Email').fill(email('acme', 'user'));
  await dialog.getByLabel('Name').fill('Nora New');
  await dialog.getByRole('combobox', { name: /^Role/ }).selectOption('viewer');
  await dialog.getByLabel('Data access roles').fill('hr, finance, hr');
  await dialog.getByLabel(/^Password/).fill('short');
  await dialog.getByRole('button', { name: 'Add the user' }).click();
  await dialog.getByText('At least 12 characters.').waitFor();
  await dialog.getByLabel(/^Password/).fill('nora-new-console-passphrase');
  await dialog.getByRole('button', { name: 'Add the user' }).click();
  await dialog.getByRole('alert').getByText('Another user of this tenant has this email address.').waitFor();
  await dialog.getByLabel('Email').fill('nora.new@acme.test');
  await dialog.getByLabel(/^Password/).fill('password123456');
  await dialog.getByRole('button', { name: 'Add the user' }).click();
  await dialog.getByRole('alert').getByText('The password is too easy to guess.').waitFor();
  await dialog.getByLabel(/^Password/).fill('nora-new-console-passphrase');
  await dialog.getByRole('button', { name: 'Add the user' }).click();
  await page.getByText('nora.new@acme.test was added.').waitFor();
  assert.equal(await dialog.isVisible(), false);
  await focusComesTo(page, 'Add a user', 'focus returns to the button that opened the dialog');
  await row(page, 'nora.new@acme.test').getByRole('cell', { name: 'Viewer', exact: true }).waitFor();
  let nora = (await usersOfAcme()).find((user) => user.email === 'nora.new@acme.test')!;
  assert.deepEqual([nora.name, nora.role, nora.status, nora.data_access_roles], ['Nora New', 'viewer', 'active', ['hr', 'finance']]);
  const login = () =>
    harness.server.call('/auth/login', { customer_id: 'acme', email: 'nora.new@acme.test', password: 'nora-new-console-passphrase' });
  assert.equal((await login()).status, 200, 'the password was set');

  // Changing the role.
  await page.getByRole('button', { name: 'Edit nora.new@acme.test' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit nora.new@acme.test' });
  await edit.getByRole('combobox', { name: /^Role/ }).selectOption('user');
  await assertAccessible(page, 'edit a user dialog');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await row(page, 'nora.new@acme.test').getByRole('cell', { name: 'User', exact: true }).waitFor();
  nora = (await usersOfAcme()).find((user) => user.email === 'nora.new@acme.test')!;
  assert.deepEqual([nora.name, nora.role, nora.data_access_roles], ['Nora New', 'user', ['hr', 'finance']]);

  // Disabling and enabling.
  await page.getByRole('button', { name: 'Disable nora.new@acme.test' }).click();
  await page.getByText('nora.new@acme.test is now disabled.').waitFor();
  await row(page, 'nora.new@acme.test').getByRole('cell', { name: 'Disabled', exact: true }).waitFor();
  assert.equal((await usersOfAcme()).find((user) => user.email === 'nora.new@acme.test')!.status, 'disabled');
  assert.equal((await login()).status, 401, 'a disabled user cannot sign in');
  await page.getByRole('button', { name: 'Enable nora.new@acme.test' }).click();
  await page.getByText('nora.new@acme.test is now active.').waitFor();
  assert.equal((await login()).status, 200);

  // Deleting: Escape keeps the user, the confirmation deletes it.
  await page.getByRole('button', { name: 'Delete nora.new@acme.test' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete nora.new@acme.test?' });
  await confirm.waitFor();
  await focusComesTo(page, 'Cancel', 'focus starts on the safe choice');
  await assertAccessible(page, 'delete a user dialog');
  await page.keyboard.press('Escape');
  await confirm.waitFor({ state: 'hidden' });
  await focusComesTo(page, 'Delete nora.new@acme.test', 'Escape hands focus back to the button');
  await page.keyboard.press('Enter');
  await confirm.getByRole('button', { name: 'Delete the user' }).click();
  await page.getByText('nora.new@acme.test was deleted.').waitFor();
  await row(page, 'nora.new@acme.test').waitFor({ state: 'detached' });
  await focusComesTo(page, 'Users', 'focus goes to the list when the row it came from is gone');
  assert.equal(
    (await usersOfAcme()).some((user) => user.email === 'nora.new@acme.test'),
    false,
  );

  // The last admin cannot be disabled, demoted or deleted.
  const lastAdmin = 'This change would leave the tenant without an active admin; make another user an admin first.';
  await page.getByRole('button', { name: `Disable ${email('acme', 'admin')}` }).click();
  await page.getByRole('alert').getByText(lastAdmin).waitFor();
  await page.getByRole('button', { name: `Edit ${email('acme', 'admin')}` }).click();
  const editAdmin = page.getByRole('dialog', { name: `Edit ${email('acme', 'admin')}` });
  await editAdmin.getByRole('combobox', { name: /^Role/ }).selectOption('user');
  await editAdmin.getByRole('button', { name: 'Save changes' }).click();
  await editAdmin.getByRole('alert').getByText(lastAdmin).waitFor();
  await editAdmin.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: `Delete ${email('acme', 'admin')}` }).click();
  const deleteAdmin = page.getByRole('dialog', { name: `Delete ${email('acme', 'admin')}?` });
  await deleteAdmin.getByRole('button', { name: 'Delete the user' }).click();
  await deleteAdmin.getByRole('alert').getByText(lastAdmin).waitFor();
  await assertAccessible(page, 'last admin refused');
  await deleteAdmin.getByRole('button', { name: 'Cancel' }).click();
  const admin = (await usersOfAcme()).find((user) => user.email === email('acme', 'admin'))!;
  assert.deepEqual([admin.role, admin.status], ['admin', 'active']);
  await session.finish('account-users');
});

test('the billing portal opens where it is set up, and a tenant without one is told so plainly', async () => {
  const session = await harness.signedIn('acme', 'admin', '/account', { allowedOrigins: [portalOrigin] });
  const { page } = session;
  await page.route(`${portalOrigin}/**`, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Billing portal</title><h1>Stand-in portal</h1>' }),
  );
  const sent = standIn.requests.length;
  await page.getByRole('button', { name: 'Open the billing portal' }).click();
  await page.waitForURL(`${portalOrigin}/p/session/**`);
  assert.equal(standIn.requests.length, sent + 1);
  assert.equal(standIn.requests.at(-1)!.form.return_url, `${harness.url}/account`, 'the portal sends the person back here');
  await session.finish('account-billing-portal');

  const globex = await harness.signedIn('globex', 'admin', '/account', { viewport: phone });
  await globex.page.getByRole('button', { name: 'Open the billing portal' }).click();
  await globex.page.getByText('Billing is not configured for this deployment.').waitFor();
  assert.equal(await globex.page.getByRole('alert').count(), 0, 'not shown as an error');
  assert.equal(standIn.requests.length, sent + 1);
  await assertAccessible(globex.page, 'account without billing');
  await assertFitsWidth(globex.page, 'account without billing');
  await globex.finish('account-globex-phone');
});

test('the account export is saved as the ZIP the API streams', async () => {
  const session = await harness.signedIn('acme', 'admin', '/account');
  const { page } = session;
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download the export' }).click()]);
  assert.match(download.suggestedFilename(), /^account-acme-.+\.zip$/);
  const saved = await readFile(await download.path());
  assert.equal(saved.subarray(0, 4).toString('latin1'), 'PK\u0003\u0004', 'a ZIP');
  await page.getByText(/^The export \(.+\) is downloaded\.$/).waitFor();

  const response = await fetch(`${harness.server.url}/api/v1/account/export`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}` },
  });
  assert.equal(response.status, 200);
  const fromApi = await readZip(Buffer.from(await response.arrayBuffer()));
  const entries = await readZip(saved);
  assert.deepEqual(
    entries.map((entry) => entry.name),
    fromApi.map((entry) => entry.name),
  );
  for (const [index, entry] of entries.entries()) {
    if (entry.name !== 'manifest.json') {
      assert.ok(entry.bytes.equals(fromApi[index]!.bytes), `${entry.name} holds the same bytes`);
      continue;
    }
    // The manifest says when it was made, and lists every other file by size and hash.
    const { generated_at: _saved, ...manifest } = JSON.parse(entry.bytes.toString('utf8'));
    const { generated_at: _api, ...apiManifest } = JSON.parse(fromApi[index]!.bytes.toString('utf8'));
    assert.deepEqual(manifest, apiManifest);
  }
  assert.ok(entries.some((entry) => entry.name === 'users.jsonl' && entry.bytes.length > 0));
  await session.finish('account-export');
});

test('a user who types /console/account sees the API refuse, and nothing else', async () => {
  const session = await harness.signedIn('acme', 'user', '/account', { viewport: phone });
  const { page } = session;
  await page.getByRole('alert').getByText('This operation needs the admin role; the caller has user.').waitFor();
  for (const name of ['Add a user', 'Open the billing portal', 'Download the export', 'Delete the account…']) {
    assert.equal(await page.getByRole('button', { name }).count(), 0, name);
  }
  await assertAccessible(page, 'account as user');
  await assertFitsWidth(page, 'account as user');
  await session.finish('account-refused-user');
});

test('the account is deleted only with its exact confirmation; the session ends and sign-in refuses the account', async () => {
  const session = await harness.signedIn('acme', 'admin', '/account', { viewport: phone, colorScheme: 'dark' });
  const { page } = session;
  await assertAccessible(page, 'account at phone width, dark');
  await assertFitsWidth(page, 'account at phone width');
  // The users table fits too: no sideways scrolling inside its frame.
  const frame = page.locator('.table-wrap', { has: page.getByRole('table') }).first();
  const { scrollWidth, clientWidth } = await frame.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
  assert.ok(scrollWidth <= clientWidth, `the users table is ${scrollWidth}px wide in a ${clientWidth}px frame`);
  await page.getByText(`Last sign-in:`, { exact: false }).first().waitFor();
  await page.screenshot({ path: join(screenshots, 'account-phone-dark.png'), fullPage: true });
  await page.getByRole('button', { name: 'Delete the account…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete the account?' });
  await dialog.getByText('To confirm, type DELETE acme exactly.').waitFor();
  const confirmation = dialog.getByLabel('Confirmation');
  const submit = dialog.getByRole('button', { name: 'Delete the account' });
  assert.equal(await submit.isDisabled(), true);
  for (const typed of ['DELETE acm', 'delete acme', 'DELETE acme ', 'DELETE globex']) {
    await confirmation.fill(typed);
    assert.equal(await submit.isDisabled(), true, `"${typed}" does not confirm`);
  }
  await assertAccessible(page, 'delete the account dialog');
  await assertFitsWidth(page, 'delete the account dialog');
  await confirmation.fill('DELETE acme');
  assert.equal(await submit.isDisabled(), false);
  await submit.click();

  const done = page.getByRole('dialog', { name: 'The account is deleted' });
  await done.getByText(/^The account acme was deleted on .+\. Its users can no longer sign in/).waitFor();
  await focusComesTo(page, 'Go to sign-in', 'focus moves to the way on');
  await assertAccessible(page, 'account deleted');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  assert.equal(await page.evaluate(() => sessionStorage.getItem('groundcheck.session')), null, 'the session ended');
  await page.getByText('The account was deleted. Its users can no longer sign in.').waitFor();

  // Sign-in now refuses acme, and says that the account may have been closed.
  await page.getByLabel('Customer id').fill('acme');
  await page.getByLabel('Email').fill(email('acme', 'admin'));
  await page.getByLabel('Password').fill(password('acme', 'admin'));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page
    .getByRole('alert')
    .getByText(/or the account was closed/)
    .waitFor();
  const refused = await harness.server.call('/auth/me', undefined, { token: adminToken });
  assert.deepEqual([refused.status, refused.body.code], [401, 'invalid_token']);
  await page.setViewportSize(desktop);
  await signIn(page, 'globex', 'admin');
  await session.finish('account-deleted');
});
