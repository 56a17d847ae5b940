// The held-out documents are scored by the aggregator fitted on the development cases, never on themselves,
// and are read from their own folder, apart from the development cases.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { assessAll } from '../../eval/cross-validation.js';
import { type Case, loadCases, loadHoldout } from '../../eval/datasets.js';
import { assessHoldout, holdoutOutcomes, holdoutRows } from '../../eval/holdout.js';

const source = 'Lockers. A locker costs £3 a day. Towels are free for members.';
function realistic(id: string, answer: string, hallucinated: boolean, fold: string): Case {
  return { id, set: 'team-realistic', fold, question: 'What does a locker cost?', answer, source, hallucinated, type: 'x' };
}

describe('the held-out documents', () => {
  it('are read from their own folder, as their own set, and never among the development cases', () => {
    const dir = mkdtempSync(join(tmpdir(), 'holdout-'));
    const line = { id: 'H-1', domain: 'pool', source, question: 'q', answer: 'a', label: 'grounded', error: null, note: '' };
    writeFileSync(join(dir, 'pool.jsonl'), `${JSON.stringify(line)}\n`);
    const held = loadHoldout(dir);
    assert.deepEqual(
      held.map((c) => [c.id, c.set, c.fold]),
      [['H-1', 'team-holdout', 'pool']],
    );
    const development = new Set(loadCases().map((c) => c.id));
    assert.ok(loadHoldout().every((c) => !development.has(c.id)));
  });
  it('are scored by the aggregator fitted on the development cases alone', async () => {
    const development = [
      ...Array.from({ length: 6 }, (_, i) => realistic(`r${i}`, 'A locker costs £3 a day.', false, `d${i % 2}`)),
      ...Array.from({ length: 6 }, (_, i) => realistic(`w${i}`, 'A locker costs £7 a day.', true, `d${i % 2}`)),
    ];
    const { assessed, info } = assessAll(development);
    const held = [
      { ...realistic('h-right', 'Lockers are £3 a day.', false, 'gym'), set: 'team-holdout' as const },
      { ...realistic('h-wrong', 'Lockers are £9 a day.', true, 'gym'), set: 'team-holdout' as const },
    ];
    const outcomes = holdoutOutcomes(await assessHoldout(held, null), assessed, info);
    assert.deepEqual(
      outcomes.map((o) => [o.case.id, o.flagged]),
      [
        ['h-right', false],
        ['h-wrong', true],
      ],
    );
    assert.deepEqual(holdoutRows(outcomes), [
      '| gym | 2 | 100.0% | 1.000 | 1.000 | 1/0/1/0 |',
      '| all held-out documents | 2 | 100.0% | 1.000 | 1.000 | 1/0/1/0 |',
    ]);
  });
});
