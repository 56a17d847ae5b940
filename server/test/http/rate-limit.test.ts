import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../src/lib/clock.js';
import { writeFixture } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/harness.js';

// The server's clock stands still, a quarter second into a window, so no window ends mid-test.
const clock = new ManualClock(new Date('2026-11-25T10:00:00.250Z'));
let server: TestServer;
before(async () => {
  server = await startTestServer({ clock });
});
after(() => server.close());

// Tenant "tiny" allows 3 requests per 2-second window; windows start on the clock's even seconds.
test('authenticated calls count against the tenant limit, then 429 until the window resets', async () => {
  const body = server.apiKeyBody('tiny', 'viewer');
  const seen = [];
  for (let i = 0; i < 3; i += 1) {
    const reply = await server.call('/auth/me', body);
    assert.equal(reply.status, 200);
    seen.push(Number(reply.headers.get('ratelimit-remaining')));
    assert.equal(reply.headers.get('ratelimit-limit'), '3');
    assert.ok(Number(reply.headers.get('ratelimit-reset')) >= 1);
  }
  assert.deepEqual(seen, [2, 1, 0]);

  const limited = await server.call('/auth/me', body);
  assert.equal(limited.status, 429);
  assert.equal(limited.body.code, 'rate_limited');
  const retryAfter = Number(limited.headers.get('retry-after'));
  assert.equal(retryAfter, 2, `Retry-After ${retryAfter}`);
  assert.equal(limited.headers.get('ratelimit-remaining'), '0');

  // Other tenants are not affected.
  assert.equal((await server.call('/auth/me', server.apiKeyBody('acme', 'viewer'))).status, 200);

  clock.advance(retryAfter * 1000);
  const recovered = await server.call('/auth/me', body);
  assert.equal(recovered.status, 200);
  assert.equal(recovered.headers.get('ratelimit-remaining'), '2');
});

test('calls without credentials are not counted and carry no rate-limit headers', async () => {
  const health = await server.call('/healthz', undefined, { method: 'GET' });
  assert.equal(health.status, 200);
  assert.equal(health.headers.get('ratelimit-limit'), null);
});

test("a caller's sub-limit keeps one key from spending the tenant's whole quota", async () => {
  const fixture = await writeFixture({ overrides: { tiny: { rate_limit: { requests: 4, window_seconds: 60, per_principal: 2 } } } });
  const limited = await startTestServer({ clock, fixture });
  try {
    const viewer = limited.apiKeyBody('tiny', 'viewer');
    const user = limited.apiKeyBody('tiny', 'user');
    const statuses = [];
    for (const body of [viewer, viewer, viewer, user, user]) statuses.push((await limited.call('/auth/me', body)).status);
    // The viewer's third call is refused by its own limit and does not count for the tenant: the user's two still pass.
    assert.deepEqual(statuses, [200, 200, 429, 200, 200]);
    const spent = await limited.call('/auth/me', limited.apiKeyBody('tiny', 'admin'));
    assert.equal(spent.status, 429);
    assert.match(spent.body.detail, /tenant's limit/);
  } finally {
    await limited.close();
  }
});
