import assert from 'node:assert/strict';
import { test } from 'node:test';
import { auroc, operatingPoints } from '../../eval/ranking.js';

const ranked = (pairs: [number, boolean][]) => pairs.map(([score, positive]) => ({ score, positive }));

test('AUROC: 1 for a perfect ranking, 0 for a reversed one, 0.5 for a coin', () => {
  assert.equal(
    auroc(
      ranked([
        [0.9, true],
        [0.8, true],
        [0.2, false],
        [0.1, false],
      ]),
    ),
    1,
  );
  assert.equal(
    auroc(
      ranked([
        [0.1, true],
        [0.9, false],
      ]),
    ),
    0,
  );
  assert.equal(
    auroc(
      ranked([
        [0.5, true],
        [0.5, false],
      ]),
    ),
    0.5,
    'a tie counts half',
  );
});

test('AUROC counts the pairs a score orders rightly, ties half', () => {
  // Positives 0.8 and 0.4; negatives 0.6, 0.4 and 0.2. Pairs: (0.8 over all three) 3, (0.4 over 0.2) 1,
  // (0.4 tied with 0.4) 0.5, (0.4 under 0.6) 0: 4.5 of 6.
  const cases = ranked([
    [0.8, true],
    [0.4, true],
    [0.6, false],
    [0.4, false],
    [0.2, false],
  ]);
  assert.equal(auroc(cases), 4.5 / 6);
  assert.equal(auroc(ranked([[0.3, true]])), null, 'undefined without both classes');
});

test('operating points: precision and recall of flagging every case above each threshold, none exactly at it', () => {
  const cases = ranked([
    [0.9, true],
    [0.7, false],
    [0.6, true],
    [0.5, false],
    [0.3, true],
    [0.1, false],
  ]);
  assert.deepEqual(operatingPoints(cases, [0.5, 0.8, 0.95]), [
    { threshold: 0.5, precision: 2 / 3, recall: 2 / 3, flagged: 3 },
    { threshold: 0.8, precision: 1, recall: 1 / 3, flagged: 1 },
    { threshold: 0.95, precision: 1, recall: 0, flagged: 0 },
  ]);
});
