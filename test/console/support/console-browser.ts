// The console as a person uses it: the real server on the embedded emulators serving the built console,
// headless Chromium (Debian's package, driven by playwright-core), and on every page a record of each
// request that leaves the server, each console error, CSP violation and uncaught error. A test ends a
// page with `finish`, which fails on any of them, and keeps a screenshot in test-results/console/.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Role } from '@groundcheck/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { email, password } from '../../../server/test/support/fixtures.js';
import { startTestServer, type TestServer, type TestServerOptions } from '../../../server/test/support/harness.js';
import { launchChromium } from '../../support/chromium.js';
import { repoRoot } from '../../support/spec.js';

export const screenshots = join(repoRoot, 'test-results', 'console');
/** The built console (npm run build -w @groundcheck/console); CONSOLE_DIR names another build. */
export const consoleDir = process.env.CONSOLE_DIR ?? join(repoRoot, 'console', 'dist');

export const phone = { width: 360, height: 780 };
export const desktop = { width: 1440, height: 900 };

export interface ConsoleSession {
  context: BrowserContext;
  page: Page;
  /** Requests to any origin but the server's (or `allowedOrigins`). */
  outside: string[];
  /** Console errors, CSP violations, uncaught errors. */
  problems: string[];
  /** Checks the page's record, keeps its screenshot under `name`, and closes it. */
  finish(name: string): Promise<void>;
}

export class ConsoleHarness {
  private constructor(
    readonly server: TestServer,
    readonly browser: Browser,
  ) {}

  static async start(options: TestServerOptions = {}): Promise<ConsoleHarness> {
    assert.ok(existsSync(join(consoleDir, 'index.html')), `No console build in ${consoleDir}: npm run build -w @groundcheck/console`);
    mkdirSync(screenshots, { recursive: true });
    const [server, browser] = await Promise.all([
      startTestServer({ ...options, env: { CONSOLE_DIR: consoleDir, ...options.env } }),
      launchChromium(),
    ]);
    return new ConsoleHarness(server, browser);
  }

  get url(): string {
    return `${this.server.url}/console`;
  }

  async close(): Promise<void> {
    await this.browser?.close();
    await this.server?.close();
  }

  /** A fresh browser context (no session) on `path` of the console. */
  async open(
    path = '/',
    options: { viewport?: { width: number; height: number }; colorScheme?: 'light' | 'dark'; allowedOrigins?: string[] } = {},
  ): Promise<ConsoleSession> {
    const context = await this.browser.newContext({
      viewport: options.viewport ?? desktop,
      colorScheme: options.colorScheme ?? 'light',
      acceptDownloads: true,
    });
    const page = await context.newPage();
    const outside: string[] = [];
    const problems: string[] = [];
    const allowed = [this.server.url, ...(options.allowedOrigins ?? [])];
    page.on('request', (request) => {
      const url = request.url();
      if (!allowed.some((origin) => url.startsWith(`${origin}/`) || url === origin) && !url.startsWith('data:') && !url.startsWith('blob:'))
        outside.push(url);
    });
    page.on('console', (message) => {
      // Chromium logs each 4xx answer as an error; the refusals a test provokes (a wrong password, a
      // lost race) are its subject, and the page's handling of them is what the test checks.
      if (/^Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())) return;
      if (message.type() === 'error' || /Content Security Policy|Refused to/i.test(message.text()))
        problems.push(`${message.type()}: ${message.text()}`);
    });
    page.on('response', (response) => {
      if (response.status() >= 500) problems.push(`${response.status()} from ${response.url()}`);
    });
    page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
    await page.goto(`${this.url}${path}`);
    const finish = async (name: string) => {
      await page.screenshot({ path: join(screenshots, `${name}.png`), fullPage: true });
      await context.close();
      assert.deepEqual(outside, [], 'every request goes to this server');
      assert.deepEqual(problems, [], 'no console error, no CSP violation, no uncaught error');
    };
    return { context, page, outside, problems, finish };
  }

  /** Opens `path` signed in as the tenant's user of `role`, through the sign-in form. */
  async signedIn(customerId: string, role: Role, path = '/', options: Parameters<ConsoleHarness['open']>[1] = {}): Promise<ConsoleSession> {
    const session = await this.open(path, options);
    await signIn(session.page, customerId, role);
    return session;
  }
}

/** Fills the sign-in form the way a person does and waits for the console's navigation. */
export async function signIn(page: Page, customerId: string, role: Role): Promise<void> {
  await page.getByLabel('Customer id').fill(customerId);
  await page.getByLabel('Email').fill(email(customerId, role));
  await page.getByLabel('Password').fill(password(customerId, role));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Console' }).waitFor();
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core on the page as it is now: no serious or critical violation (WCAG 2.x A and AA, and best practice). */
export async function assertAccessible(page: Page, screen: string): Promise<void> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern: the page itself
  // never loads the checker.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: any[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n: any) => n.target.join(' ')).slice(0, 5),
    }));
  });
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(serious, [], `axe-core on ${screen}: ${JSON.stringify(serious, null, 2)}`);
}

/** No part of the page is wider than the window (no sideways scrolling at 360 px). */
export async function assertFitsWidth(page: Page, screen: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  assert.ok(scrollWidth <= innerWidth, `${screen} is ${scrollWidth}px wide in a ${innerWidth}px window`);
}
