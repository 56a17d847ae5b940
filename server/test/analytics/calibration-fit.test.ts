// The fit behind the tenant's operating point, case by case: the threshold, the time-ordered guard, the minimums.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { DecidedReview } from '../../src/cosmos/history-store.js';
import { calibration, riskThreshold } from '../../src/services/analytics/calibration.js';

const settings = { mode: 'suggest' as const, refitEvery: 50, targetPrecision: 0.9, minDecisions: 10, minEach: 3 };
const decided = (day: number, risk: number | undefined, wrong: boolean, flagged: boolean): DecidedReview => ({
  created_at: new Date(Date.UTC(2026, 0, 1 + day)).toISOString(),
  state: wrong ? 'rejected' : 'approved',
  ...(risk === undefined ? {} : { risk }),
  findings: flagged
    ? [{ category: 'unsupported_claim', status: 'failed', title: 'u', description: 'u', severity: 'medium', claim_index: 0 }]
    : [],
});

describe('the operating point fitted to a tenant', () => {
  test('the threshold is the lowest risk whose flags reach the target precision, or none', () => {
    const cases = [0.2, 0.4, 0.45, 0.7, 0.9].map((risk, i) => ({ risk, flagged: true, wrong: [false, true, false, true, true][i]! }));
    assert.deepEqual(
      [0.9, 0.7, 0.6].map((target) => riskThreshold(cases, target)),
      [0.7, 0.4, 0.2],
    );
    assert.equal(riskThreshold([{ risk: 0.8, flagged: true, wrong: false }], 0.5), null);
  });

  test('a point that does not beat the current one on the newer decisions is not suggested', () => {
    // The current point already flags exactly the wrong answers: nothing can do better.
    const cases = Array.from({ length: 20 }, (_, day) => decided(day, day % 2 ? 0.3 : 0.8, day % 2 === 0, day % 2 === 0));
    const result = calibration(cases, settings, 0.5);
    assert.deepEqual([result.status, result.decisions, result.suggested], ['no_better_point', 20, null]);
  });

  test('a fit that lands on the point in force is no suggestion', () => {
    // Answers the engine passed sit exactly at the point (risk 0.5) and the reviewers rejected most of them: flagging
    // at risk 0.5 and above beats what was flagged, but that is the point already in force.
    const cases = Array.from({ length: 20 }, (_, day) => decided(day, day % 4 === 0 ? 0.3 : 0.5, day % 4 !== 0, false));
    assert.deepEqual(calibration(cases, settings, 0.5).suggested, null);
    assert.equal(calibration(cases, settings, 0.5).status, 'no_better_point');
    assert.equal(calibration(cases, settings, 0.6).suggested?.supported_score, 0.5);
  });

  test('records without a risk do not count, and both outcomes need their minimum', () => {
    const oneSided = Array.from({ length: 12 }, (_, day) => decided(day, 0.8, true, true));
    assert.equal(calibration(oneSided, settings, 0.5).status, 'too_few_decisions');
    const older = Array.from({ length: 12 }, (_, day) => decided(day, undefined, day % 2 === 0, true));
    assert.deepEqual([calibration(older, settings, 0.5).status, calibration(older, settings, 0.5).decisions], ['too_few_decisions', 0]);
  });
});
