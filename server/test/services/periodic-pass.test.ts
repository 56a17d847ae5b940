// The background passes' scheduling: one pass at a time, joined rather than repeated, and a wait for
// the pass under way that starts none.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PeriodicPass } from '../../src/services/periodic-pass.js';

class CountedPass extends PeriodicPass {
  passes = 0;
  release: () => void = () => {};
  protected async pass(): Promise<void> {
    this.passes += 1;
    await new Promise<void>((resolve) => {
      this.release = resolve;
    });
  }
}

test('a pass under way is joined, and settled() waits for it without starting another', async () => {
  const pass = new CountedPass(60_000);
  await pass.settled();
  assert.equal(pass.passes, 0, 'settled() starts no pass');

  const first = pass.runOnce();
  const joined = pass.runOnce();
  assert.equal(pass.passes, 1, 'a second call joins the pass under way');
  let settled = false;
  const waiting = pass.settled().then(() => {
    settled = true;
  });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(settled, false, 'settled() waits while the pass runs');
  pass.release();
  await Promise.all([first, joined, waiting]);
  assert.equal(settled, true);
  assert.equal(pass.passes, 1);
  await pass.stop();
});
