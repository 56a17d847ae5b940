// Two server processes on one store, as two instances of one deployment: they share the tenant's rate
// limit and the login throttle, and 50 validations spread over both are each counted once, with a
// gapless audit chain.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createEmbeddedCosmos } from '../../src/cosmos/embedded-cosmos.js';
import { generateApiKey } from '../../src/services/auth/api-keys.js';
import { email, type Fixture, password, writeFixture } from '../support/fixtures.js';
import { startServerProcess } from '../support/server-process.js';

const emulator = createEmbeddedCosmos();
const children: ChildProcess[] = [];
let urls: string[] = [];
let fixture: Fixture;

async function startProcess(env: Record<string, string>): Promise<string> {
  const { url, child } = await startServerProcess({ NODE_ENV: 'test', LOG_LEVEL: 'warn', ...env });
  children.push(child);
  return url;
}

/** A JSON POST, from 127.0.0.1 or from another loopback address of this machine. */
function post(url: string, path: string, body: object, localAddress = '127.0.0.1'): Promise<{ status: number; body: any }> {
  const { hostname, port } = new URL(url);
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: hostname,
        port,
        path,
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()) }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

describe('two processes on one store', () => {
  before(async () => {
    await new Promise<void>((resolve) => emulator.listen(0, '127.0.0.1', resolve));
    // An hour-long window: no window ends while the test counts.
    fixture = await writeFixture({ overrides: { tiny: { rate_limit: { requests: 6, window_seconds: 3600 } } } });
    const env = {
      TENANTS_FILE: fixture.file,
      COSMOS_ENDPOINT: `http://127.0.0.1:${(emulator.address() as AddressInfo).port}`,
      COSMOS_KEY: Buffer.from('two-processes').toString('base64'),
      JWT_SECRET: generateApiKey().key,
      ANONYMOUS_RATE_LIMIT: '100000',
    };
    // One after the other, as a deployment rolls out: the first creates the database and the tenant file's users.
    urls = [await startProcess(env)];
    urls.push(await startProcess(env));
  });
  after(async () => {
    for (const child of children) child.kill();
    emulator.closeAllConnections();
    await new Promise<void>((resolve) => emulator.close(() => resolve()));
  });

  it("shares the tenant's rate limit", async () => {
    const body = { customer_id: 'tiny', api_key: fixture.apiKeys.tiny!.viewer };
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await post(urls[i % 2]!, '/auth/me', body)).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 429, 429]);
  });

  it('shares the login throttle, which locks the account only from the guessing address', async () => {
    const login = (url: string, secret: string, from?: string) =>
      post(url, '/auth/login', { email: email('globex', 'viewer'), password: secret, customer_id: 'globex' }, from);
    for (let i = 0; i < 5; i++) assert.equal((await login(urls[i % 2]!, 'not-the-password')).status, 401);
    for (const url of urls) {
      const locked = await login(url, password('globex', 'viewer'));
      assert.equal(locked.status, 429);
      assert.equal(locked.body.code, 'too_many_login_attempts');
    }
    // The owner, from another address, is not locked out by a stranger's guesses.
    assert.equal((await login(urls[1]!, password('globex', 'viewer'), '127.0.0.2')).status, 200);
  });

  it('counts 50 validations spread over both once each, with a gapless audit chain', async () => {
    const user = { customer_id: 'acme', api_key: fixture.apiKeys.acme!.user };
    const admin = { customer_id: 'acme', api_key: fixture.apiKeys.acme!.admin };
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        post(urls[i % 2]!, '/api/v1/validate', {
          ...user,
          mode: 'validate',
          question: 'How many days of leave do staff get?',
          chatbot_response: `Staff get ${20 + (i % 10)} days of leave a year.`,
          inline_text: 'Staff are entitled to 25 days of paid leave per calendar year.',
        }),
      ),
    );
    assert.deepEqual(
      replies.map((r) => r.status),
      Array(50).fill(200),
    );
    assert.equal(new Set(replies.map((r) => r.body.validation_id)).size, 50);
    const stats = await post(urls[0]!, '/api/v1/stats', admin);
    assert.equal(stats.status, 200);
    assert.equal(stats.body.validations.total, 50);
    const events: { sequence: number; kind: string; validation_id: string | null }[] = [];
    let cursor: string | undefined;
    do {
      const page = await post(urls[1]!, '/api/v1/audit', { ...admin, limit: 100, ...(cursor ? { cursor } : {}) });
      assert.equal(page.status, 200);
      events.push(...page.body.data);
      cursor = page.body.has_more ? page.body.next_cursor : undefined;
    } while (cursor);
    assert.deepEqual(
      events.map((e) => e.sequence),
      events.map((_, i) => i + 1),
    );
    const created = events.filter((e) => e.kind === 'validation_created').map((e) => e.validation_id);
    assert.equal(created.length, 50);
    assert.equal(new Set(created).size, 50);
  });
});
