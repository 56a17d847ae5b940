// The console's frame: how it is served (policy, caching, compression, budget), sign-in and back to the
// page a person was on, a session that ends, sign-out, and the navigation each role gets.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { brotliCompressSync } from 'node:zlib';
import { assertAccessible, assertFitsWidth, ConsoleHarness, phone, signIn } from './support/console-browser.js';

let harness: ConsoleHarness;
before(async () => {
  harness = await ConsoleHarness.start();
});
after(() => harness?.close());

test('the console is served with its own policy: hashed assets kept a year, the entry revalidated, everything compressed', async () => {
  const entry = await fetch(`${harness.url}/reviews/some-case`, { headers: { 'accept-encoding': 'br' } });
  assert.equal(entry.status, 200);
  assert.match(entry.headers.get('content-type')!, /^text\/html/);
  assert.equal(entry.headers.get('cache-control'), 'public, no-cache');
  assert.equal(entry.headers.get('content-encoding'), 'br');
  const policy = entry.headers.get('content-security-policy')!;
  assert.match(policy, /script-src 'self'(;|$)/);
  assert.match(policy, /style-src 'self'(;|$)/);
  assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval/);
  const html = await entry.text();
  assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
  assert.doesNotMatch(html, /<style|style=/, 'no inline style');
  const script = html.match(/src="(\/console\/assets\/[^"]+\.js)"/)![1]!;
  const asset = await fetch(harness.server.url + script, { headers: { 'accept-encoding': 'gzip' } });
  assert.equal(asset.status, 200);
  assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  assert.equal(asset.headers.get('content-encoding'), 'gzip');
  const tag = asset.headers.get('etag')!;
  const again = await fetch(harness.server.url + script, { headers: { 'accept-encoding': 'gzip', 'if-none-match': tag } });
  assert.equal(again.status, 304);
  const missing = await fetch(`${harness.url}/assets/nothing-here.js`);
  assert.equal(missing.status, 404);
  assert.match(missing.headers.get('content-type')!, /^application\/problem\+json/);
  const posted = await fetch(`${harness.url}/`, { method: 'POST' });
  assert.equal(posted.status, 405);
  // The API keeps its own headers.
  const api = await fetch(`${harness.server.url}/api/v1/system-card`);
  assert.equal(api.headers.get('cache-control'), 'no-store');
  assert.match(api.headers.get('content-security-policy')!, /default-src 'none'/);
});

test('the first load stays within 250 kB of compressed JavaScript', async () => {
  const session = await harness.open('/sign-in');
  const scripts = new Set<string>();
  session.page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.add(response.url());
  });
  await session.page.reload();
  await session.page.getByRole('button', { name: 'Sign in' }).waitFor();
  let compressed = 0;
  for (const url of scripts) compressed += brotliCompressSync(Buffer.from(await (await fetch(url)).arrayBuffer())).length;
  assert.ok(scripts.size > 0);
  assert.ok(compressed <= 250_000, `${compressed} bytes of compressed JavaScript on first load`);
  await session.finish('sign-in');
});

test('a person who opens a page without a session signs in and lands on that page; sign-out ends the session', async () => {
  const session = await harness.open('/system');
  const { page } = session;
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await assertAccessible(page, 'sign-in');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText('Enter your customer id.').waitFor();
  await page.getByLabel('Customer id').fill('acme');
  await page.getByLabel('Email').fill('viewer@acme.test');
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('alert').waitFor();
  await signIn(page, 'acme', 'viewer');
  assert.equal(new URL(page.url()).pathname, '/console/system');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.goto(`${harness.url}/dashboard`);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await session.finish('signed-out');
});

test('a session the server no longer accepts sends the person to sign in, then back to the page', async () => {
  const session = await harness.signedIn('acme', 'user', '/check');
  const { page } = session;
  await page.evaluate(() => {
    const stored = JSON.parse(sessionStorage.getItem('groundcheck.session')!);
    sessionStorage.setItem('groundcheck.session', JSON.stringify({ ...stored, token: `${stored.token}x` }));
  });
  await page.goto(`${harness.url}/reviews`);
  await page.getByText('Your session has ended.').waitFor();
  await signIn(page, 'acme', 'user');
  assert.equal(new URL(page.url()).pathname, '/console/reviews');
  await session.finish('session-ended');
});

test('each role sees the screens it may use, at phone width too', async () => {
  const expected = {
    viewer: ['Dashboard', 'Reviews', 'Sources', 'System card'],
    user: ['Dashboard', 'Check an answer', 'Reviews', 'Sources', 'System card'],
    admin: ['Dashboard', 'Check an answer', 'Reviews', 'Sources', 'Templates', 'Audit', 'Account', 'System card'],
  } as const;
  for (const role of ['viewer', 'user', 'admin'] as const) {
    const session = await harness.signedIn('acme', role, '/system', { viewport: phone });
    const links = await session.page.getByRole('navigation', { name: 'Console' }).getByRole('link').allTextContents();
    assert.deepEqual(links, expected[role]);
    await assertFitsWidth(session.page, `navigation as ${role}`);
    await session.finish(`navigation-${role}-phone`);
  }
  // A tenant without templates or the audit trail does not offer them.
  const globex = await harness.signedIn('globex', 'admin', '/system');
  const links = await globex.page.getByRole('navigation', { name: 'Console' }).getByRole('link').allTextContents();
  assert.deepEqual(links, ['Dashboard', 'Check an answer', 'Reviews', 'Sources', 'Account']);
  await globex.finish('navigation-globex-admin');
});

test('light and dark follow the system setting', async () => {
  const backgrounds: Record<string, string> = {};
  for (const colorScheme of ['light', 'dark'] as const) {
    const session = await harness.signedIn('acme', 'viewer', '/system', { colorScheme });
    backgrounds[colorScheme] = await session.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await assertAccessible(session.page, `the frame, ${colorScheme}`);
    await session.finish(`frame-${colorScheme}`);
  }
  assert.notEqual(backgrounds.light, backgrounds.dark);
  const luminance = (rgb: string) =>
    rgb
      .match(/\d+/g)!
      .slice(0, 3)
      .reduce((sum, channel) => sum + Number(channel), 0);
  assert.ok(
    luminance(backgrounds.dark!) < luminance(backgrounds.light!),
    `dark ${backgrounds.dark} is darker than light ${backgrounds.light}`,
  );
});
