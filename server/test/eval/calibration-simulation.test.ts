// The per-tenant calibration simulation of the eval: a fitted point where a tenant's cases call for one, measured on
// cases it never saw, and the guard that keeps a fit that does not help.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { refitTenant, simulateTenant } from '../../eval/calibration-simulation.js';
import { assessAll, type Outcome } from '../../eval/cross-validation.js';
import type { Case } from '../../eval/datasets.js';

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

  test('weights refitted for a tenant judge its second half only, with the labels of those cases', () => {
    // A bakery's hours and a gym's fees: right answers, and answers with a figure the source contradicts.
    const source = 'The bakery opens at 7am and closes at 6pm. A loaf of rye costs 4 euros.';
    const gym = 'Membership costs 30 euros a month. The gym opens at 6am on weekdays.';
    const make = (fold: string, i: number, text: string, answer: string, wrong: boolean): Case => ({
      id: `${fold}-${i}`,
      set: 'realistic' as Case['set'],
      fold,
      question: 'What does the source say?',
      answer,
      source: text,
      hallucinated: wrong,
      type: wrong ? 'numeric' : 'grounded',
    });
    const tenant = Array.from({ length: 8 }, (_, i) =>
      i % 2 === 0
        ? make('bakery', i, source, 'The bakery opens at 7am.', false)
        : make('bakery', i, source, 'A loaf of rye costs 9 euros.', true),
    );
    const others = Array.from({ length: 8 }, (_, i) =>
      i % 2 === 0
        ? make('gym', i, gym, 'Membership costs 30 euros a month.', false)
        : make('gym', i, gym, 'Membership costs 80 euros a month.', true),
    );
    const { assessed, info } = assessAll([...tenant, ...others]);
    const row = refitTenant(
      'bakery',
      assessed.filter((a) => a.case.fold === 'bakery'),
      assessed.filter((a) => a.case.fold === 'gym'),
      info,
    );
    const labels = tenant.slice(4).map((c) => c.hallucinated);
    assert.deepEqual(
      row.withOthers.map((v) => v.wrong),
      labels,
    );
    assert.deepEqual(
      row.ownCases.map((v) => v.wrong),
      labels,
    );
    // With the gym's cases beside its own, the contradicted figure is flagged and the right answer is not.
    assert.deepEqual(
      row.withOthers.map((v) => v.flagged),
      labels,
    );
  });
});
