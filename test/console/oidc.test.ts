// Sign-in through a tenant's identity provider: the console's sign-in options for a customer id, and
// in the browser, authorization code with PKCE against a loopback OpenID provider and back to the page
// the person asked for, with the role the provider's token carries. The provider's origin is the one
// place besides the server that the browser may reach, and only during sign-in.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { loadTenantFile } from '../../server/src/tenants/tenant-file.js';
import { email, oidcAudience, writeFixture } from '../../server/test/support/fixtures.js';
import { startTestServer } from '../../server/test/support/harness.js';
import { assertAccessible, assertFitsWidth, ConsoleHarness, consoleDir, phone } from './support/console-browser.js';
import { startIdentityProvider, type TestIdentityProvider } from './support/oidc-provider.js';

const clientId = 'groundcheck-console';
const roleMapping = { 'GC.Admin': 'admin', 'GC.Reviewer': 'user', 'GC.Reader': 'viewer' };
/** tiny signs in both ways: its local accounts, and the provider for another audience. */
const tinyAudience = 'api://groundcheck-tiny';

let harness: ConsoleHarness;
let idp: TestIdentityProvider;
let redirectUri: string;

/** A port nobody listens on now, so that the tenant file can name the console's callback before the server starts. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

before(async () => {
  const port = await freePort();
  redirectUri = `http://127.0.0.1:${port}/console/sign-in/callback`;
  idp = await startIdentityProvider({
    clientId,
    redirectUri,
    audience: oidcAudience,
    accounts: {
      ines: { password: 'ines-password', name: 'Ines Initech', roles: ['GC.Reviewer'] },
      ada: { password: 'ada-password', name: 'Ada Initech', roles: ['GC.Admin', 'Unrelated'] },
    },
  });
  const oidc = (audience: string, resource: string | undefined) => ({
    issuer: idp.issuer,
    audience,
    jwks_uri: idp.jwksUri,
    role_mapping: roleMapping,
    console: { client_id: clientId, redirect_uri: redirectUri, ...(resource ? { resource } : {}) },
  });
  const fixture = await writeFixture({
    overrides: {
      initech: { auth: { oidc: oidc(oidcAudience, oidcAudience) } },
      tiny: { auth: { local: {}, oidc: oidc(tinyAudience, undefined) } },
    },
  });
  harness = await ConsoleHarness.start({ fixture, env: { PORT: String(port) } });
});
after(async () => {
  await harness?.close();
  await idp?.close();
});

const options = (query: string) => fetch(`${harness.url}/sign-in-options?${query}`);

test('the sign-in options name the identity provider of a tenant that has one; an unknown customer id reads like local sign-in', async () => {
  const local = await options('customer_id=acme');
  assert.equal(local.status, 200);
  assert.match(local.headers.get('content-type')!, /^application\/json/);
  assert.equal(local.headers.get('cache-control'), 'no-store');
  assert.match(local.headers.get('content-security-policy')!, /script-src 'self'/);
  const localBody = await local.json();
  assert.deepEqual(localBody, { local: true, identity_provider: null });

  const unknown = await options('customer_id=no-such-tenant');
  assert.equal(unknown.status, local.status);
  assert.deepEqual(await unknown.json(), localBody);
  for (const header of ['content-type', 'cache-control', 'content-security-policy', 'content-length'])
    assert.equal(unknown.headers.get(header), local.headers.get(header), header);

  const initech = await (await options('customer_id=initech')).json();
  assert.deepEqual(initech, {
    local: false,
    identity_provider: {
      issuer: idp.issuer,
      client_id: clientId,
      redirect_uri: redirectUri,
      scope: 'openid profile',
      resource: oidcAudience,
    },
  });
  const tiny = await (await options('customer_id=tiny')).json();
  assert.deepEqual(tiny, {
    local: true,
    identity_provider: { issuer: idp.issuer, client_id: clientId, redirect_uri: redirectUri, scope: 'openid profile', resource: null },
  });

  // The console's policy lets its pages call the tenants' identity providers, and nothing else new.
  const connect = local.headers
    .get('content-security-policy')!
    .match(/connect-src ([^;]+)/)![1]!
    .split(' ');
  assert.ok(connect.includes(idp.issuer), connect.join(' '));
});

test('the sign-in options refuse a customer id that is not one, as a problem', async () => {
  const cases: [string, string][] = [
    ['customer_id=Acme', 'query:customer_id'],
    ['customer_id=a', 'query:customer_id'],
    ['customer_id=acme/../x', 'query:customer_id'],
    ['', 'query:customer_id'],
    ['customer_id=acme&customer_id=globex', 'query:customer_id'],
    ['customer_id=acme&tenant=globex', 'query:tenant'],
  ];
  for (const [query, pointer] of cases) {
    const reply = await options(query);
    assert.equal(reply.status, 400, query);
    assert.match(reply.headers.get('content-type')!, /^application\/problem\+json/);
    const problem = await reply.json();
    assert.equal(problem.code, 'invalid_request');
    assert.deepEqual(
      problem.errors.map((e: { pointer: string }) => e.pointer),
      [pointer],
      query,
    );
  }
  // Many unknown parameters: the problem lists 20 of them, as the API's problems do, and counts them all.
  const many = await options(`customer_id=acme&${Array.from({ length: 25 }, (_, i) => `p${i}=1`).join('&')}`);
  const manyProblem = await many.json();
  assert.deepEqual(
    [many.status, manyProblem.errors.length, manyProblem.detail],
    [400, 20, 'The request has 25 parameters this path does not take.'],
  );
  const posted = await fetch(`${harness.url}/sign-in-options?customer_id=acme`, { method: 'POST' });
  assert.equal(posted.status, 405);
});

test('the sign-in options count against the address like the other calls without credentials', async () => {
  const limited = await startTestServer({ env: { CONSOLE_DIR: consoleDir, ANONYMOUS_RATE_LIMIT: '3' } });
  try {
    const lookUp = () => fetch(`${limited.url}/console/sign-in-options?customer_id=acme`);
    assert.equal((await lookUp()).status, 200);
    assert.equal(
      (await limited.call('/auth/login', { customer_id: 'acme', email: email('acme', 'viewer'), password: 'wrong' })).status,
      401,
    );
    assert.equal((await lookUp()).status, 200);
    const refused = await lookUp();
    assert.equal(refused.status, 429);
    assert.equal((await refused.json()).code, 'rate_limited');
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    // One allowance for both: the login that follows is refused as well.
    assert.equal(
      (await limited.call('/auth/login', { customer_id: 'acme', email: email('acme', 'viewer'), password: 'wrong' })).status,
      429,
    );
  } finally {
    await limited.close();
  }
});

test('the tenant file takes a console client only with what the browser needs', async () => {
  const load = async (client: object, issuer = 'https://idp.example.com/tenant') => {
    const oidc = { issuer, audience: 'api://x', jwks_uri: 'https://idp.example.com/keys', role_mapping: roleMapping, console: client };
    const { file } = await writeFixture({ overrides: { initech: { auth: { oidc } } } });
    return () => loadTenantFile(file, { historyTtlDays: 90, region: 'westeurope' });
  };
  const callback = 'https://groundcheck.example.com/console/sign-in/callback';
  const initech = (await load({ client_id: 'console', redirect_uri: callback }))().find((t) => t.customerId === 'initech')!;
  assert.deepEqual(initech.auth.oidc!.console, { clientId: 'console', redirectUri: callback, scope: 'openid profile', resource: null });
  assert.throws(await load({ client_id: 'console', redirect_uri: 'https://groundcheck.example.com/elsewhere' }), /redirect_uri/);
  assert.throws(await load({ client_id: 'console', redirect_uri: callback, scope: 'profile email' }), /scope/);
  assert.throws(await load({ client_id: 'console' }), /redirect_uri/);
  assert.throws(await load({ client_id: 'console', redirect_uri: callback }, 'idp-tenant-7'), /issuer.*must be an http\(s\) URL/);
});

/** Types the customer id and waits for the page to offer the identity provider. */
async function chooseIdentityProvider(page: Page, customerId: string) {
  await page.getByLabel('Customer id').fill(customerId);
  await page.getByRole('button', { name: 'Sign in with your identity provider' }).waitFor();
}

/** The provider's own pages: its sign-in form, then (the first time) its consent. */
async function signInAtProvider(page: Page, login: string, password: string) {
  await page.getByRole('heading', { name: 'Sign in to the identity provider' }).waitFor();
  assert.equal(new URL(page.url()).origin, idp.issuer);
  await page.getByLabel('Login').fill(login);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Continue to Groundcheck' }).click();
  await page.getByRole('button', { name: 'Allow' }).click();
}

test('a person of a tenant with an identity provider signs in there and lands on the page asked for; sign-out ends the session', async () => {
  const session = await harness.open('/system', { allowedOrigins: [idp.issuer] });
  const { page } = session;
  await chooseIdentityProvider(page, 'initech');
  assert.equal(await page.getByLabel('Email').count(), 0, 'no password for a tenant that signs in elsewhere');
  await page.getByText('This customer id signs in through its identity provider.').waitFor();
  await assertAccessible(page, 'sign-in through an identity provider');
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  await page.getByRole('button', { name: 'Sign in with your identity provider' }).click();
  await signInAtProvider(page, 'ines', 'ines-password');
  await page.getByRole('navigation', { name: 'Console' }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/console/system');
  assert.ok(
    requested.some((url) => url.includes('/assets/oidc-sign-in')),
    'the OpenID Connect client came with the choice',
  );
  // The browser read the provider's discovery document and exchanged the code itself.
  assert.ok(requested.includes(`${idp.issuer}/.well-known/openid-configuration`));
  assert.ok(requested.includes(`${idp.issuer}/token`));

  // Authorization code with PKCE, for the API's audience.
  const authorize = idp.authorizationRequests.at(-1)!;
  assert.equal(authorize.get('response_type'), 'code');
  assert.equal(authorize.get('client_id'), clientId);
  assert.equal(authorize.get('redirect_uri'), redirectUri);
  assert.equal(authorize.get('code_challenge_method'), 'S256');
  assert.ok(authorize.get('code_challenge'));
  assert.equal(authorize.get('resource'), oidcAudience);
  assert.deepEqual(authorize.get('scope')!.split(' ').sort(), ['openid', 'profile']);

  // The provider's GC.Reviewer is the console's user, with the name from the token.
  const links = await page.getByRole('navigation', { name: 'Console' }).getByRole('link').allTextContents();
  assert.deepEqual(links, ['Dashboard', 'Check an answer', 'Reviews', 'Sources', 'System card']);
  await page.getByText('Ines Initech').waitFor();
  const stored = await page.evaluate(() => ({
    session: JSON.parse(sessionStorage.getItem('groundcheck.session')!),
    keys: Object.keys(sessionStorage),
  }));
  assert.equal(stored.session.authentication, 'oidc');
  assert.equal(stored.session.customerId, 'initech');
  assert.ok(Date.parse(stored.session.expiresAt) > Date.now());
  assert.deepEqual(stored.keys, ['groundcheck.session'], 'nothing of the sign-in is left but the session');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.goto(`${harness.url}/dashboard`);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  assert.equal(await page.evaluate(() => sessionStorage.getItem('groundcheck.session')), null);
  await session.finish('oidc-signed-out');
});

test('a session the server no longer accepts sends the person back through the provider, customer id kept, to the page', async () => {
  const session = await harness.open('/sources', { allowedOrigins: [idp.issuer] });
  const { page } = session;
  await chooseIdentityProvider(page, 'initech');
  // Enter in the customer id field goes to the provider too.
  await page.keyboard.press('Enter');
  await signInAtProvider(page, 'ada', 'ada-password');
  await page.getByRole('navigation', { name: 'Console' }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/console/sources');
  const links = await page.getByRole('navigation', { name: 'Console' }).getByRole('link').allTextContents();
  assert.ok(links.includes('Account'), 'GC.Admin is the console admin');

  await page.evaluate(() => {
    const stored = JSON.parse(sessionStorage.getItem('groundcheck.session')!);
    sessionStorage.setItem('groundcheck.session', JSON.stringify({ ...stored, token: `${stored.token}x` }));
  });
  await page.goto(`${harness.url}/system`);
  await page.getByText('Your session has ended.').waitFor();
  assert.equal(await page.getByLabel('Customer id').inputValue(), 'initech');
  // The provider still knows the person: no sign-in or consent there this time.
  await page.getByRole('button', { name: 'Sign in with your identity provider' }).click();
  await page.getByRole('navigation', { name: 'Console' }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/console/system');
  await session.finish('oidc-session-ended');
});

test('a sign-in refused at the provider, or a callback without a sign-in, is explained with the way back', async () => {
  const session = await harness.open('/dashboard', { allowedOrigins: [idp.issuer] });
  const { page } = session;
  await chooseIdentityProvider(page, 'initech');
  await page.getByRole('button', { name: 'Sign in with your identity provider' }).click();
  await page.getByRole('heading', { name: 'Sign in to the identity provider' }).waitFor();
  await page.getByRole('link', { name: 'Cancel' }).click();
  await page.getByRole('heading', { name: 'Sign-in did not finish' }).waitFor();
  await page.getByRole('alert').getByText('The person declined.').waitFor();
  await assertAccessible(page, 'sign-in refused');
  await page.getByRole('link', { name: 'Back to sign-in' }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();

  await page.goto(`${harness.url}/sign-in/callback?code=forged&state=forged`);
  await page.getByRole('heading', { name: 'Sign-in did not finish' }).waitFor();
  await page.getByRole('alert').getByText('No sign-in through an identity provider is under way in this tab.').waitFor();
  assert.equal(await page.evaluate(() => sessionStorage.getItem('groundcheck.session')), null);
  await session.finish('oidc-refused');
});

test('the sign-in page in each of its states, at phone width and in dark', async () => {
  const states = [
    { customerId: 'acme', name: 'local', provider: false, local: true },
    { customerId: 'initech', name: 'identity-provider', provider: true, local: false },
    { customerId: 'tiny', name: 'both', provider: true, local: true },
  ];
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const state of states) {
      const session = await harness.open('/sign-in', { viewport: phone, colorScheme });
      const { page } = session;
      const lookedUp = page.waitForResponse((response) => response.url().endsWith(`sign-in-options?customer_id=${state.customerId}`));
      await page.getByLabel('Customer id').fill(state.customerId);
      await lookedUp;
      const button = page.getByRole('button', { name: 'Sign in with your identity provider' });
      if (state.provider) await button.waitFor();
      assert.equal(await button.count(), state.provider ? 1 : 0, state.name);
      assert.equal(await page.getByLabel('Password').count(), state.local ? 1 : 0, state.name);
      const scripts = await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name));
      assert.ok(!scripts.some((name) => name.includes('oidc-sign-in')), 'the OpenID Connect client loads only when a person uses it');
      await assertAccessible(page, `sign-in (${state.name}, ${colorScheme})`);
      await assertFitsWidth(page, `sign-in (${state.name})`);
      await session.finish(`sign-in-${state.name}-phone-${colorScheme}`);
    }
  }
});
