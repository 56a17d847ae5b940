// The background passes' scheduling: one pass at a time, joined rather than repeated, and a wait for
// the pass under way that starts none; the operating point pass's checks after decisions, one at a time per tenant.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLogger } from '../../src/logger.js';
import { OperatingPointPass } from '../../src/services/engine/operating-point-pass.js';
import type { OperatingPoints } from '../../src/services/engine/operating-points.js';
import { PeriodicPass } from '../../src/services/periodic-pass.js';
import type { Tenant } from '../../src/tenants/tenant.js';

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

test('the operating point pass checks a tenant in mode apply after its decisions, one check at a time, and no other tenant', async () => {
  const checked: string[] = [];
  let release: () => void = () => {};
  const points = {
    refitIfDue: async (tenant: Tenant) => {
      checked.push(tenant.customerId);
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return null;
    },
  } as unknown as OperatingPoints;
  const tenant = (customerId: string, mode: Tenant['calibration']['mode']) => ({ customerId, calibration: { mode } }) as Tenant;
  const applying = tenant('acme', 'apply');
  const pass = new OperatingPointPass(points, [], createLogger('silent'));
  pass.decided(tenant('globex', 'suggest'));
  assert.deepEqual(checked, [], 'a tenant in mode suggest is fitted only when an admin asks');
  pass.decided(applying);
  pass.decided(applying);
  pass.decided(applying);
  assert.deepEqual(checked, ['acme'], 'decisions during a check ask for one more after it, not one each');
  release();
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(checked, ['acme', 'acme']);
  const settled = pass.settled();
  release();
  await settled;
  assert.deepEqual(checked, ['acme', 'acme']);
  await pass.stop();
});
