// Engine agreement from decided reviews, case by case: what each decision says of the answer and of each flag.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { DecidedReview } from '../../src/cosmos/history-store.js';
import { engineAgreement, tallyAgreement } from '../../src/services/analytics/engine-agreement.js';

type Finding = NonNullable<DecidedReview['findings']>[number];
const flag = (category: Finding['category'], claim: number | null, status: Finding['status'] = 'failed'): Finding => ({
  category,
  status,
  title: category,
  description: category,
  severity: 'medium',
  claim_index: claim,
});
const decided = (state: DecidedReview['state'], findings: Finding[], corrections: string[] = [], day = '2026-03-02'): DecidedReview => ({
  created_at: `${day}T10:00:00.000Z`,
  state,
  findings,
  user_corrections: corrections.map((element) => ({ element, action: 'replace', note: 'Corrected.' })),
});

describe('engine agreement', () => {
  test('an edit confirms the flags on the claims it corrected and overturns the others', () => {
    const tally = tallyAgreement([decided('edited', [flag('unsupported_claim', 0), flag('contradicted_claim', 2)], ['claim:2'])]);
    assert.deepEqual(tally.byCategory.get('contradicted_claim'), { confirmed: 1, overturned: 0 });
    assert.deepEqual(tally.byCategory.get('unsupported_claim'), { confirmed: 0, overturned: 1 });
    assert.equal(tally.byDay.get('2026-03-02')?.flagged_wrong, 1);
  });

  test('an edit of the whole answer, or a rejection, confirms every flag; an approval overturns every flag', () => {
    const tally = tallyAgreement([
      decided('edited', [flag('unsupported_claim', 0)], ['answer']),
      decided('external_rejected', [flag('unsupported_claim', 1)]),
      decided('external_approved', [flag('unsupported_claim', 3), flag('source_conflict', null)]),
    ]);
    assert.deepEqual(tally.byCategory.get('unsupported_claim'), { confirmed: 2, overturned: 1 });
    assert.deepEqual(tally.byCategory.get('source_conflict'), { confirmed: 0, overturned: 1 });
  });

  test('the confusion table and its rates, by month; a passed finding is no flag', () => {
    const tally = tallyAgreement([
      decided('approved', [flag('incomplete_answer', null, 'passed')], [], '2026-02-27'),
      decided('rejected', [], [], '2026-02-28'),
      decided('rejected', [flag('contradicted_claim', 0, 'fixed')], [], '2026-03-01'),
      decided('approved', [flag('unsupported_claim', 0, 'warning')], [], '2026-03-01'),
    ]);
    const agreement = engineAgreement(['2026-02-27', '2026-02-28', '2026-03-01'], tally);
    assert.deepEqual(
      [agreement.decisions, agreement.flagged_wrong, agreement.flagged_right, agreement.unflagged_wrong, agreement.unflagged_right],
      [4, 1, 1, 1, 1],
    );
    assert.deepEqual([agreement.precision, agreement.recall], [0.5, 0.5]);
    assert.deepEqual(
      agreement.monthly.map((m) => [m.month, m.decisions, m.precision, m.recall]),
      [
        ['2026-02', 2, null, 0],
        ['2026-03', 2, 0.5, 1],
      ],
    );
    assert.equal(agreement.by_category.incomplete_answer.precision, null);
  });
});
