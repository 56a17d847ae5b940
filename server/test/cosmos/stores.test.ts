// The Cosmos DB stores against the embedded emulator through @azure/cosmos, below the HTTP layer: what
// each promises its callers (email locks, ETag guards, keyset pages, tenant partitions, window counts).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type CosmosStore, openCosmos } from '../../src/cosmos/cosmos.js';
import { IdempotencyStore } from '../../src/cosmos/idempotency-store.js';
import { EmailTakenError, type UserRecord, UserStore } from '../../src/cosmos/user-store.js';
import { WindowCountStore } from '../../src/cosmos/window-count-store.js';
import { capturedLog } from '../support/captured-log.js';

let cosmos: CosmosStore;
before(async () => {
  cosmos = await openCosmos({ cosmos: null, databaseId: 'stores', log: capturedLog().log });
});
after(async () => {
  await cosmos.close();
});

function user(customerId: string, id: string, email: string, role: UserRecord['role'] = 'user'): UserRecord {
  const at = '2026-11-02T09:00:00.000Z';
  return {
    id,
    customer_id: customerId,
    kind: 'user',
    email,
    name: id,
    role,
    data_access_roles: [],
    status: 'active',
    password_hash: null,
    created_at: at,
    updated_at: at,
    last_login_at: null,
  };
}

describe('UserStore', () => {
  let users: UserStore;
  before(() => {
    users = new UserStore(cosmos.container('users'));
  });

  test('an email belongs to one user of a tenant, whatever its case; another tenant may use it', async () => {
    await users.create(user('harbour', 'usr_a', 'pat@harbour.example'));
    await assert.rejects(users.create(user('harbour', 'usr_b', 'PAT@harbour.example')), EmailTakenError);
    assert.equal(await users.get('harbour', 'usr_b'), null, 'the refused user was not written');
    await users.create(user('orchard', 'usr_c', 'pat@harbour.example'));
    assert.equal((await users.findByEmail('harbour', 'Pat@Harbour.example'))?.id, 'usr_a');
    assert.equal((await users.findByEmail('orchard', 'pat@harbour.example'))?.id, 'usr_c');
    assert.equal(await users.get('orchard', 'usr_a'), null, "another tenant's id reads as missing");
  });

  test('a change written over a stale version is refused as changed, and a new email moves the lock', async () => {
    await users.create(user('harbour', 'usr_d', 'dee@harbour.example'));
    const read = (await users.read('harbour', 'usr_d'))!;
    const renamed = { ...read.record, email: 'dee.new@harbour.example', updated_at: '2026-11-02T10:00:00.000Z' };
    assert.equal(await users.replace(read, renamed, null), 'written');
    assert.equal(await users.replace(read, { ...read.record, name: 'Stale' }, null), 'changed');
    assert.equal((await users.get('harbour', 'usr_d'))?.email, 'dee.new@harbour.example');
    // The old email is free again; the new one is taken.
    await users.create(user('harbour', 'usr_e', 'dee@harbour.example'));
    const other = (await users.read('harbour', 'usr_e'))!;
    assert.equal(await users.replace(other, { ...other.record, email: 'dee.new@harbour.example' }, null), 'email_taken');
  });

  test('of two changes that rely on the admin count, read at once, only one is written', async () => {
    await users.create(user('quarry', 'usr_f', 'f@quarry.example', 'admin'));
    await users.create(user('quarry', 'usr_g', 'g@quarry.example', 'admin'));
    assert.equal(await users.countActiveAdmins('quarry'), 2);
    const [f, g, guard] = await Promise.all([users.read('quarry', 'usr_f'), users.read('quarry', 'usr_g'), users.adminGuard('quarry')]);
    const demote = (stored: typeof f) => ({ ...stored!.record, role: 'user' as const, updated_at: '2026-11-02T11:00:00.000Z' });
    const outcomes = await Promise.all([users.replace(f!, demote(f), guard), users.replace(g!, demote(g), guard)]);
    assert.deepEqual(outcomes.sort(), ['changed', 'written']);
    assert.equal(await users.countActiveAdmins('quarry'), 1);
  });

  test('pages are ordered by email, keyset by the last one, and end', async () => {
    for (const name of ['delta', 'alpha', 'echo', 'charlie', 'bravo']) {
      await users.create(user('meadow', `usr_${name}`, `${name}@meadow.example`, name === 'charlie' ? 'admin' : 'user'));
    }
    const first = await users.page('meadow', {}, 2);
    assert.deepEqual(
      first.items.map((u) => u.email),
      ['alpha@meadow.example', 'bravo@meadow.example'],
    );
    assert.equal(first.hasMore, true);
    const last = await users.page('meadow', { afterEmail: 'charlie@meadow.example' }, 2);
    assert.deepEqual(
      last.items.map((u) => u.email),
      ['delta@meadow.example', 'echo@meadow.example'],
    );
    assert.equal(last.hasMore, false);
    assert.deepEqual(
      (await users.page('meadow', { role: 'admin' }, 10)).items.map((u) => u.id),
      ['usr_charlie'],
    );
    assert.ok(
      first.items.every((u) => !('_etag' in u)),
      "Cosmos DB's own fields are not part of a record",
    );
    const everyone: string[] = [];
    for await (const page of users.pages('meadow', 2)) everyone.push(...page.map((u) => u.id));
    assert.equal(everyone.length, 5);
  });
});

describe('WindowCountStore', () => {
  test('counts per key and window add up under concurrent increments, and clear forgets one window', async () => {
    const counts = new WindowCountStore(cosmos.container('limits'));
    const key = { partition: 'harbour', name: 'requests' };
    const window = Date.UTC(2026, 10, 2, 9, 0);
    const totals = await Promise.all(Array.from({ length: 20 }, () => counts.increment(key, window, 60)));
    assert.equal(Math.max(...totals), 20, 'no increment is lost, the first one creating the window');
    assert.equal(await counts.count(key, window), 20);
    assert.equal(await counts.increment(key, window, 60, 5), 25);
    assert.equal(await counts.count(key, window + 60_000), 0, 'the next window starts from nothing');
    assert.equal(await counts.count({ partition: 'orchard', name: 'requests' }, window), 0, "another partition's key is its own");
    await counts.clear(key, window);
    assert.equal(await counts.count(key, window), 0);
    await counts.clear(key, window);
  });
});

describe('IdempotencyStore', () => {
  const leaseMs = 15_000;
  const keys = () => new IdempotencyStore(cosmos.container('idempotency'), leaseMs);
  const at = new Date('2026-11-02T09:00:00.000Z');
  const after = (ms: number) => new Date(at.getTime() + ms);

  test('a key is claimed once per tenant, and a completed key replays for the day', async () => {
    const store = keys();
    const [a, b] = await Promise.all([
      store.claim('harbour', 'key-1', 'saveSourceGroup', 'fp-1', at),
      store.claim('harbour', 'key-1', 'saveSourceGroup', 'fp-1', at),
    ]);
    assert.deepEqual([a.claimed, b.claimed].sort(), [false, true], 'of two concurrent claims only one wins');
    const winner = a.claimed ? a.held : b.claimed ? b.held : assert.fail('no winner');
    assert.equal((await store.claim('orchard', 'key-1', 'saveSourceGroup', 'fp-1', at)).claimed, true, "another tenant's key is its own");

    const response = { status: 201, headers: { 'content-type': 'application/json' }, body: Buffer.from('{}').toString('base64') };
    await store.complete(winner, response);
    const later = await store.claim('harbour', 'key-1', 'saveSourceGroup', 'fp-1', after(60 * 60 * 1000));
    assert.equal(later.claimed, false);
    assert.deepEqual(later.claimed ? [] : [later.record.state, later.record.response], ['completed', response]);
  });

  test('a holder that stops renewing loses the key to a retry of the same request when its lease runs out, with the same bound id', async () => {
    const store = keys();
    const first = await store.claim('harbour', 'key-2', 'reviewValidation', 'fp-2', at);
    assert.ok(first.claimed);
    const early = await store.claim('harbour', 'key-2', 'reviewValidation', 'fp-2', after(leaseMs - 1));
    assert.equal(early.claimed, false, 'within the lease the key is held');
    assert.equal(early.claimed ? null : early.record.lease_until, after(leaseMs).toISOString(), 'the record says until when');
    const other = await store.claim('harbour', 'key-2', 'reviewValidation', 'fp-other', after(leaseMs));
    assert.equal(other.claimed, false, 'another request with the key never takes it over');
    const takeover = await store.claim('harbour', 'key-2', 'reviewValidation', 'fp-2', after(leaseMs));
    assert.ok(takeover.claimed);
    assert.equal(takeover.held.takenOver, true);
    assert.equal(takeover.held.record.bound_id, first.held.record.bound_id, 'what the request creates keeps its id');
    assert.notEqual(takeover.held.record.owner, first.held.record.owner);
    assert.equal(await store.renew(first.held, after(leaseMs + 1)), false, 'the old holder cannot renew a key taken over');
    assert.equal(await store.renew(takeover.held, after(leaseMs + 5000)), true);
    const stillHeld = await store.claim('harbour', 'key-2', 'reviewValidation', 'fp-2', after(2 * leaseMs + 4999));
    assert.equal(stillHeld.claimed, false, 'a renewed lease holds the key past its first end');
  });

  test('a released key is taken over at once, with the same bound id', async () => {
    const store = keys();
    const first = await store.claim('harbour', 'key-3', 'validate', 'fp-3', at);
    assert.ok(first.claimed);
    await store.release(first.held);
    const retry = await store.claim('harbour', 'key-3', 'validate', 'fp-3', after(1));
    assert.ok(retry.claimed);
    assert.deepEqual([retry.held.takenOver, retry.held.record.bound_id], [true, first.held.record.bound_id]);
    const day = await store.claim('harbour', 'key-3', 'validate', 'fp-3', after(25 * 60 * 60 * 1000));
    assert.ok(day.claimed);
    assert.equal(day.held.takenOver, false, 'a day later the key starts afresh');
    assert.notEqual(day.held.record.bound_id, first.held.record.bound_id);
  });
});
