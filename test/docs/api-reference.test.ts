// The API reference as readers and tools get it: /docs in headless Chromium (Debian's package,
// driven by playwright-core) with JavaScript on (Scalar's interactive reference) and off (the
// pre-rendered reference), failing on any console error, any request that leaves the server and any
// CSP violation; the assets compressed and revalidated by ETag; the SDK samples generated from the
// SDK's own methods and up to date.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { generateSdkSamples } from '../../scripts/generate-sdk-samples.js';
import { startTestServer, type TestServer } from '../../server/test/support/harness.js';
import { launchChromium } from '../support/chromium.js';
import { rawSpec, repoRoot, specPath } from '../support/spec.js';

const results = join(repoRoot, 'test-results');
let server: TestServer;
let browser: Browser;

type Operation = { operationId?: string; 'x-problem-codes'?: Record<string, string[]> };
const operations = Object.values(rawSpec().paths ?? {}).flatMap((item) =>
  Object.values(item as Record<string, unknown>).filter(
    (value): value is Operation => typeof value === 'object' && value !== null && 'operationId' in value,
  ),
);

before(async () => {
  mkdirSync(results, { recursive: true });
  [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** A page that records every request it makes and every console error, warning about policy, or uncaught error. */
async function openDocs(javaScriptEnabled: boolean, hash = '') {
  const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 1440, height: 1000 } });
  const page: Page = await context.newPage();
  const requests: string[] = [];
  const problems: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content Security Policy|Refused to/i.test(message.text())) {
      problems.push(`${message.type()}: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  await page.goto(`${server.url}/docs${hash}`, { waitUntil: 'networkidle' });
  const finish = async (screenshot: string) => {
    await page.screenshot({ path: join(results, screenshot) });
    const outside = requests.filter((url) => !url.startsWith(`${server.url}/`) && !url.startsWith('data:') && !url.startsWith('blob:'));
    assert.deepEqual(outside, [], 'every request goes to this server');
    assert.deepEqual(problems, [], 'no console error, no CSP violation, no uncaught error');
    await context.close();
  };
  return { page, requests, finish };
}

test('/openapi.yaml is the contract, and /docs a page that may load only from this server', async () => {
  const spec = await fetch(`${server.url}/openapi.yaml`);
  assert.equal(spec.status, 200);
  assert.match(spec.headers.get('content-type')!, /^application\/yaml/);
  assert.equal(await spec.text(), readFileSync(specPath, 'utf8'));
  const docs = await fetch(`${server.url}/docs`);
  assert.equal(docs.status, 200);
  const csp = docs.headers.get('content-security-policy')!;
  for (const directive of ["default-src 'none'", "script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"]) {
    assert.ok(csp.includes(directive), `${directive} in ${csp}`);
  }
  const html = await docs.text();
  assert.doesNotMatch(html, /<script>/, 'no inline script');
  assert.doesNotMatch(html, /\b(?:src|href)="(?:https?:)?\/\/(?!groundcheck\.example\.com)/, 'nothing loaded from another address');
  const posted = await fetch(`${server.url}/docs`, { method: 'POST' });
  assert.deepEqual([posted.status, posted.headers.get('allow')], [405, 'GET, HEAD']);
});

test('the assets are sent compressed, cacheable, and revalidated by ETag', async () => {
  for (const path of ['/docs', '/docs/scalar.js', '/docs/openapi.json', '/openapi.yaml']) {
    const plain = await fetch(`${server.url}${path}`, { headers: { 'accept-encoding': 'identity' } });
    const plainBytes = Buffer.from(await plain.arrayBuffer());
    assert.equal(plain.headers.get('content-encoding'), null, path);
    for (const encoding of ['br', 'gzip']) {
      // fetch decodes the body itself; its length as sent is the Content-Length.
      const response = await fetch(`${server.url}${path}`, { headers: { 'accept-encoding': encoding } });
      assert.equal(response.status, 200, path);
      assert.equal(response.headers.get('content-encoding'), encoding, `${path} ${encoding}`);
      assert.ok(Number(response.headers.get('content-length')) < plainBytes.length / 2, `${path} ${encoding} is at most half the size`);
      assert.deepEqual(Buffer.from(await response.arrayBuffer()), plainBytes, `${path} ${encoding} decodes to the same bytes`);
      assert.match(response.headers.get('vary')!, /accept-encoding/i);
      assert.match(response.headers.get('cache-control')!, /^public/);
      const etag = response.headers.get('etag')!;
      assert.notEqual(etag, plain.headers.get('etag'), 'one tag per encoding');
      const again = await fetch(`${server.url}${path}`, { headers: { 'accept-encoding': encoding, 'if-none-match': etag } });
      assert.equal(again.status, 304, `${path} ${encoding} revalidated`);
    }
  }
  const renderer = await fetch(`${server.url}/docs/scalar.js`, { method: 'HEAD', headers: { 'accept-encoding': 'br' } });
  assert.ok(Number(renderer.headers.get('content-length')) < 1_000_000, 'the renderer is sent in under 1 MB');
  assert.match(renderer.headers.get('cache-control')!, /max-age=\d+/);
});

test('the SDK samples are generated from the SDK and the contract, and up to date', () => {
  const files = generateSdkSamples();
  assert.equal(files.length, 2);
  for (const file of files) {
    assert.equal(
      readFileSync(file.path, 'utf8'),
      file.text,
      `${file.path} is out of date: node --import tsx scripts/generate-sdk-samples.ts`,
    );
  }
  const served = readFileSync(files[0]!.path, 'utf8');
  for (const { operationId } of operations) assert.ok(served.includes(`  ${operationId}: `), `a sample for ${operationId}`);
  assert.match(served, /validate: "[^"]*await client\.validate\(\{/);
  assert.match(served, /reviewValidation: "[^"]*await client\.history\.review\(/);
});

test('with JavaScript off, the pre-rendered reference shows every operation, schema, SDK sample and problem code', async () => {
  const { page, requests, finish } = await openDocs(false, '#operation-login');
  assert.ok(!requests.some((url) => url.endsWith('/docs/scalar.js')), 'no script is fetched');
  const reference = page.locator('main.reference');
  assert.ok(await reference.isVisible());
  for (const { operationId } of operations) {
    const section = page.locator(`section#operation-${operationId}`);
    assert.equal(await section.count(), 1, `operation ${operationId}`);
    assert.ok((await section.locator('pre.sample').innerText()).includes('createClient'), `the SDK sample of ${operationId}`);
  }
  for (const schema of Object.keys(rawSpec().components?.schemas ?? {})) {
    assert.equal(await page.locator(`section.schema#schema-${schema}`).count(), 1, `schema ${schema}`);
  }
  // Each operation lists only its own codes: login's 404 is local_login_disabled, not the shared list.
  const login404 = page.locator('section#operation-login .response').filter({ hasText: /^404/ });
  assert.equal(await login404.locator('.codes').innerText(), 'Problem codes: local_login_disabled');
  const validate = page.locator('section#operation-validate');
  assert.ok((await validate.locator('pre.sample').innerText()).includes('await client.validate({'));
  assert.ok((await validate.locator('figure.example').count()) > 0, 'the examples are shown');
  assert.ok(await page.locator('section#operation-login').isVisible(), 'the page opens at the linked operation');
  await finish('api-reference-no-javascript.png');
});

test('with JavaScript on, Scalar renders every tag and the validate operation with its SDK sample', async () => {
  const { page, requests, finish } = await openDocs(true);
  const sidebar = page.getByRole('navigation').first();
  for (const tag of rawSpec().tags!.map((t) => t.name)) {
    await sidebar.getByText(tag, { exact: true }).first().waitFor({ timeout: 20_000 });
  }
  assert.equal(await page.locator('main.reference').isVisible(), false, 'the pre-rendered reference gives way to Scalar');
  await sidebar.getByText('validation', { exact: true }).first().click();
  const validate = page.locator('#tag\\/validation\\/POST\\/api\\/v1\\/validate, [id$="POST/api/v1/validate"]').first();
  await validate.waitFor({ timeout: 20_000 });
  await validate.scrollIntoViewIfNeeded();
  const app = page.locator('.scalar-app');
  await app.getByText('Validate, generate, or validate and fix an answer').first().waitFor();
  assert.ok(await app.getByText('/api/v1/validate').first().isVisible(), 'the path is shown');
  await app.getByText('client.validate(').first().waitFor({ timeout: 20_000 });
  assert.ok(requests.includes(`${server.url}/docs/openapi.json`), 'the page read the document');
  await finish('api-reference.png');
});
