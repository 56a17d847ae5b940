// The per-tenant calibration simulation of the eval: a fitted point where a tenant's cases call for one, measured on
// cases it never saw, and the guard that keeps a fit that does not help.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { simulateTenant } from '../../eval/calibration-simulation.js';
import type { Outcome } from '../../eval/cross-validation.js';

const outcome = (risk: number, wrong: boolean, flagged: boolean) =>
  ({ risk, flagged, case: { hallucinated: wrong } }) as unknown as Outcome;

describe('calibration simulation', () => {
  test('a tenant whose own cases call for a higher point gets it, and it is measured on cases it never saw', () => {
    // The global point flags at risk 0.5; this tenant's right answers sit at 0.55-0.6, its wrong ones above 0.8.
    const cases = Array.from({ length: 40 }, (_, i) =>
      i % 2 === 0 ? outcome(0.55 + (i % 4) * 0.02, false, true) : outcome(0.85, true, true),
    );
    const row = simulateTenant('t', cases, 0.9);
    assert.equal(row.applied, true);
    assert.equal(row.threshold, 0.85);
    assert.deepEqual([row.global.precision, row.fitted.precision, row.fitted.accuracy, row.measured], [0.5, 1, 1, 20]);
  });

  test('a fit that does not beat the global point on the newer history is not applied', () => {
    const cases = Array.from({ length: 20 }, (_, i) => outcome(i % 2 === 0 ? 0.9 : 0.1, i % 2 === 0, i % 2 === 0));
    const row = simulateTenant('t', cases, 0.9);
    assert.equal(row.applied, false);
    assert.deepEqual(row.fitted, row.global);
  });
});
