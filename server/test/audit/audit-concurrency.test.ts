import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { AuditEvent } from '@groundcheck/contract';
import { verifyAuditChain } from '../../../sdk/src/audit-chain.js';
import { type AuditHead, AuditStore } from '../../src/cosmos/audit-store.js';
import { type AuditEntry, AuditTrail } from '../../src/services/audit/audit-trail.js';
import { actors, auditFixture, factsOf, tenantsOf } from '../support/audit.js';
import { startTestServer, type TestServer } from '../support/harness.js';

// Two servers on one Cosmos account, each with its own client: as two processes of one deployment.
let first: TestServer;
let second: TestServer;

before(async () => {
  first = await startTestServer({ fixture: await auditFixture() });
  second = await startTestServer({
    fixture: first.fixture,
    env: { COSMOS_ENDPOINT: first.cosmos.endpoint, COSMOS_KEY: Buffer.from('second-process').toString('base64') },
  });
});
after(async () => {
  await second?.close();
  await first?.close();
});

const approval = (actor: AuditEntry['actor'], note: string): AuditEntry => ({
  kind: 'approved',
  actor,
  validationId: null,
  data: { note },
});

async function trailOf(server: TestServer, customerId: string): Promise<AuditEvent[]> {
  const events: AuditEvent[] = [];
  let cursor: string | null = null;
  do {
    const reply = await server.call('/api/v1/audit', {
      ...server.apiKeyBody(customerId, 'admin'),
      limit: 100,
      ...(cursor ? { cursor } : {}),
    });
    assert.equal(reply.status, 200, reply.text);
    events.push(...reply.body.data);
    cursor = reply.body.next_cursor;
  } while (cursor);
  return events;
}

describe('appends from several processes', () => {
  test('two servers appending at once build one gapless chain in time order', async () => {
    assert.notEqual(first.cosmos, second.cosmos);
    const acme = tenantsOf(first.fixture).acme!;
    const appends = Array.from({ length: 50 }, (_, i) => [
      first.services.audit.trail.append(acme, approval(actors.admin, `first ${i}`)),
      second.services.audit.trail.append(acme, approval(actors.reviewer, `second ${i}`)),
    ]).flat();
    const appended = await Promise.all(appends);

    const trail = await trailOf(second, 'acme');
    assert.deepEqual(
      trail.map((event) => event.sequence),
      Array.from({ length: 100 }, (_, i) => i + 1),
    );
    assert.deepEqual(new Set(trail.map((event) => event.event_id)).size, 100);
    assert.deepEqual(
      trail,
      [...appended].sort((a, b) => a!.sequence - b!.sequence),
      'each append returned the event as stored',
    );
    assert.deepEqual(await verifyAuditChain(trail), { valid: true, checked: 100 });
    for (let i = 1; i < trail.length; i += 1) assert.ok(trail[i]!.occurred_at >= trail[i - 1]!.occurred_at, `time order at ${i + 1}`);
    // Each server kept the order of its own appends.
    for (const prefix of ['first', 'second']) {
      const own = trail
        .filter((event) => factsOf(event).note!.startsWith(prefix))
        .map((event) => Number(factsOf(event).note!.split(' ')[1]));
      assert.deepEqual(
        own,
        Array.from({ length: 50 }, (_, i) => i),
      );
    }
  });

  test('the head document alone keeps sequences unique when every append races', async () => {
    // Separate trails do not share an in-process queue, so only the head's ETag orders them.
    let conflicts = 0;
    class CountingStore extends AuditStore {
      override async append(customerId: string, expected: AuditHead | null, events: AuditEvent[], ttlSeconds: number) {
        const appended = await super.append(customerId, expected, events, ttlSeconds);
        if (!appended) conflicts += 1;
        return appended;
      }
    }
    const tiny = tenantsOf(first.fixture).tiny!;
    const trails = [first, second, first, second, first].map(
      (server) => new AuditTrail(new CountingStore(server.cosmos.container('audit'))),
    );
    await Promise.all(
      trails.flatMap((trail, t) => Array.from({ length: 8 }, (_, i) => trail.append(tiny, approval(actors.admin, `${t}-${i}`)))),
    );

    const trail = await trailOf(first, 'tiny');
    assert.deepEqual(
      trail.map((event) => event.sequence),
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
    assert.deepEqual(await verifyAuditChain(trail), { valid: true, checked: 40 });
    assert.ok(conflicts > 0, 'the appends really did race for the head');
  });
});
