import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTenantSemaphore, QueueFullError } from '../../src/verifiers/judge/tenant-concurrency.js';

/** A task that runs until released, recording how many run at once. */
function tasks() {
  const state = { running: 0, most: 0, releases: [] as (() => void)[] };
  const task = () =>
    new Promise<void>((resolve) => {
      state.running++;
      state.most = Math.max(state.most, state.running);
      state.releases.push(() => {
        state.running--;
        resolve();
      });
    });
  return { state, task };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

test('at most `limit` tasks run per tenant; the others wait their turn in order', async () => {
  const semaphore = createTenantSemaphore(2, 10);
  const { state, task } = tasks();
  const order: number[] = [];
  const runs = [0, 1, 2, 3, 4].map((n) =>
    semaphore.run('t', undefined, () => {
      order.push(n);
      return task();
    }),
  );
  await tick();
  assert.equal(state.running, 2);
  while (state.releases.length) {
    state.releases.shift()!();
    await tick();
  }
  await Promise.all(runs);
  assert.equal(state.most, 2);
  assert.deepEqual(order, [0, 1, 2, 3, 4]);
});

test('tenants have separate slots', async () => {
  const semaphore = createTenantSemaphore(1, 10);
  const { state, task } = tasks();
  const runs = ['a', 'b', 'a', 'b'].map((tenant) => semaphore.run(tenant, undefined, task));
  await tick();
  assert.equal(state.running, 2);
  while (state.releases.length) {
    state.releases.shift()!();
    await tick();
  }
  await Promise.all(runs);
});

test('a full waiting line is refused at once', async () => {
  const semaphore = createTenantSemaphore(1, 1);
  const { state, task } = tasks();
  const first = semaphore.run('t', undefined, task);
  const second = semaphore.run('t', undefined, task);
  await assert.rejects(semaphore.run('t', undefined, task), QueueFullError);
  await tick();
  state.releases.shift()!();
  await tick();
  state.releases.shift()!();
  await Promise.all([first, second]);
});

test('an abort while waiting leaves the line without starting the task', async () => {
  const semaphore = createTenantSemaphore(1, 5);
  const { state, task } = tasks();
  const first = semaphore.run('t', undefined, task);
  const controller = new AbortController();
  let started = false;
  const waiting = semaphore.run('t', controller.signal, async () => {
    started = true;
  });
  const third = semaphore.run('t', undefined, task);
  controller.abort(new Error('gave up'));
  await assert.rejects(waiting, /gave up/);
  await tick();
  state.releases.shift()!();
  await tick();
  // The slot went to the next in line, not to the one that left.
  assert.equal(state.running, 1);
  state.releases.shift()!();
  await Promise.all([first, third]);
  assert.equal(started, false);
});

test('an aborted signal is refused before taking a slot; a failing task frees its slot', async () => {
  const semaphore = createTenantSemaphore(1, 5);
  await assert.rejects(
    semaphore.run('t', AbortSignal.abort(new Error('already')), async () => 1),
    /already/,
  );
  await assert.rejects(
    semaphore.run('t', undefined, async () => {
      throw new Error('task failed');
    }),
    /task failed/,
  );
  assert.equal(await semaphore.run('t', undefined, async () => 'next'), 'next');
});
