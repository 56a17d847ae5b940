// The rate limiter's cache in front of the shared window counts: calls far from the limit are not
// held for the store, calls near it are counted exactly, and two processes' counts add up.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { type CosmosStore, openCosmos } from '../../src/cosmos/cosmos.js';
import { WindowCountStore } from '../../src/cosmos/window-count-store.js';
import { RateLimiter } from '../../src/http/rate-limiter.js';
import { createLogger } from '../../src/logger.js';
import type { WindowKey } from '../../src/ports/window-counts.js';

/** The real store, with its increments counted. */
class CountedStore extends WindowCountStore {
  increments = 0;
  override increment(key: WindowKey, windowStart: number, windowSeconds: number, by = 1): Promise<number> {
    this.increments += 1;
    return super.increment(key, windowStart, windowSeconds, by);
  }
}

let cosmos: CosmosStore;
const log = createLogger('silent');
const minute = { windowSeconds: 60 };
// The middle of a window, so that no test crosses into the next one.
const now = Math.floor(Date.UTC(2026, 5, 1, 9, 0, 30) / 60_000) * 60_000 + 30_000;
let keys = 0;
const freshKey = (): WindowKey => ({ partition: 'riverside', name: `key-${++keys}` });

async function settled(store: WindowCountStore, key: WindowKey, expected: number): Promise<number> {
  const windowStart = Math.floor(now / 60_000) * 60_000;
  for (let i = 0; i < 200; i++) {
    const count = await store.count(key, windowStart);
    if (count === expected) return count;
    await sleep(10);
  }
  return store.count(key, windowStart);
}

describe('RateLimiter', () => {
  before(async () => {
    cosmos = await openCosmos({ cosmos: null, databaseId: 'limits-test', log });
  });
  after(() => cosmos.close());

  it('counts every call of a small limit in the store and refuses the one past it', async () => {
    const store = new CountedStore(cosmos.container('limits'));
    const limiter = new RateLimiter(store, log);
    const key = freshKey();
    const states = [];
    for (let i = 0; i < 6; i++) states.push(await limiter.consume(key, { requests: 5, ...minute }, now));
    assert.deepEqual(
      states.map((s) => s.allowed),
      [true, true, true, true, true, false],
    );
    assert.deepEqual(
      states.map((s) => s.remaining),
      [4, 3, 2, 1, 0, 0],
    );
    assert.equal(store.increments, 6);
  });

  it('answers calls far from a large limit without waiting for the store, and adds them up in the background', async () => {
    const store = new CountedStore(cosmos.container('limits'));
    const limiter = new RateLimiter(store, log);
    const key = freshKey();
    const states = await Promise.all(Array.from({ length: 300 }, () => limiter.consume(key, { requests: 1000, ...minute }, now)));
    assert.ok(states.every((s) => s.allowed));
    assert.equal(Math.min(...states.map((s) => s.remaining)), 700);
    assert.ok(store.increments < 40, `${store.increments} store calls for 300 requests`);
    // One more call after the background additions: all 301 are in the shared count.
    await sleep(150);
    await limiter.consume(key, { requests: 1000, ...minute }, now + 200);
    assert.equal(await settled(store, key, 301), 301);
  });

  it('counts exactly in the last tenth of the limit: the call past it is refused', async () => {
    const store = new CountedStore(cosmos.container('limits'));
    const limiter = new RateLimiter(store, log);
    const key = freshKey();
    let allowed = 0;
    for (let i = 0; i < 130; i++) if ((await limiter.consume(key, { requests: 120, ...minute }, now)).allowed) allowed++;
    assert.equal(allowed, 120);
    assert.equal(await settled(store, key, 130), 130);
  });

  it('two processes on one store share the limit', async () => {
    const store = new WindowCountStore(cosmos.container('limits'));
    const first = new RateLimiter(store, log);
    const second = new RateLimiter(new WindowCountStore(cosmos.container('limits')), log);
    const key = freshKey();
    let allowed = 0;
    for (let i = 0; i < 400; i++) {
      const limiter = i % 2 === 0 ? first : second;
      if ((await limiter.consume(key, { requests: 200, ...minute }, now + i)).allowed) allowed++;
    }
    // Each process may answer the calls it has not yet added (a fiftieth of the limit) before it learns of the other's.
    assert.ok(allowed >= 200 && allowed <= 208, `${allowed} of 400 calls allowed under a limit of 200`);
  });
});
