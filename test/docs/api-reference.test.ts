// The API reference page as a reader's browser shows it: headless Chromium (Debian's package,
// driven by playwright-core) opens /docs on the reference server, finds every tag and the validate
// operation, sees no request leave the server and no CSP violation, and saves a screenshot.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { type Browser, chromium, type Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../../server/test/support/harness.js';
import { rawSpec, repoRoot, specPath } from '../support/spec.js';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const screenshot = join(repoRoot, 'test-results', 'api-reference.png');
let server: TestServer;
let browser: Browser;

before(async () => {
  assert.ok(existsSync(chromiumPath), `No Chromium at ${chromiumPath}: install it (apt-get install -y chromium) or set CHROMIUM_PATH.`);
  [server, browser] = await Promise.all([
    startTestServer(),
    chromium.launch({
      executablePath: chromiumPath,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    }),
  ]);
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test('/openapi.yaml is the contract, and /docs a page that may load only from this server', async () => {
  const spec = await fetch(`${server.url}/openapi.yaml`);
  assert.equal(spec.status, 200);
  assert.match(spec.headers.get('content-type')!, /^application\/yaml/);
  const { readFileSync } = await import('node:fs');
  assert.equal(await spec.text(), readFileSync(specPath, 'utf8'));
  const docs = await fetch(`${server.url}/docs`);
  assert.equal(docs.status, 200);
  const csp = docs.headers.get('content-security-policy')!;
  for (const directive of ["default-src 'none'", "script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"]) {
    assert.ok(csp.includes(directive), `${directive} in ${csp}`);
  }
  assert.doesNotMatch(await docs.text(), /<script>|https?:\/\//, 'no inline script, no outside address');
  const posted = await fetch(`${server.url}/docs`, { method: 'POST' });
  assert.deepEqual([posted.status, posted.headers.get('allow')], [405, 'GET, HEAD']);
});

test('Chromium renders every tag and the validate operation, with every request to this server', async () => {
  const page: Page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  const requests: string[] = [];
  const violations: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  await page.goto(`${server.url}/docs`, { waitUntil: 'networkidle' });

  const sidebar = page.getByRole('navigation').first();
  for (const tag of rawSpec().tags!.map((t) => t.name)) {
    await sidebar.getByText(tag, { exact: true }).first().waitFor({ timeout: 20_000 });
  }
  await sidebar.getByText('validation', { exact: true }).first().click();
  const validate = page.locator('#tag\\/validation\\/POST\\/api\\/v1\\/validate, [id$="POST/api/v1/validate"]').first();
  await validate.waitFor({ timeout: 20_000 });
  await validate.scrollIntoViewIfNeeded();
  await page.getByText('Validate, generate, or validate and fix an answer').first().waitFor();
  assert.ok(await page.getByText('/api/v1/validate').first().isVisible(), 'the path is shown');

  mkdirSync(join(repoRoot, 'test-results'), { recursive: true });
  await page.screenshot({ path: screenshot });
  const outside = requests.filter((url) => !url.startsWith(`${server.url}/`) && !url.startsWith('data:') && !url.startsWith('blob:'));
  assert.deepEqual(outside, []);
  assert.deepEqual(violations, []);
  assert.ok(requests.includes(`${server.url}/openapi.yaml`), 'the page read the contract');
});
