// Whether an entailment model's kinds flag claims or only move scores is measured held out: a stand-in model that
// knows which answers are wrong (where the checks cannot tell) is let flag; one that doubts right answers as often
// as wrong ones gains nothing as flags, so it only moves scores and the verdicts stay the checks'.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assessAll, assessWithModel } from '../../eval/cross-validation.js';
import type { Case } from '../../eval/datasets.js';
import { chooseModelRole } from '../../eval/model-role.js';
import type { EntailmentModel } from '../../src/verifiers/entailment/entailment-model.js';

const source = [
  'The reading room opens at 9am on weekdays.',
  'Visitors must show a library card at the front desk.',
  'Rare books are read only under supervision.',
  'Lockers are free for the length of a visit.',
  'Coats and large bags go in the cloakroom.',
  'Pencils are the only writing tools allowed near manuscripts.',
].join(' ');
const sentences = source.split(/(?<=\.) /);

// Three domains of eight answers, each a sentence of the source: the checks find every one stated, so only the
// labels (one in two wrong, as if the answer contradicted a document the checks cannot read) tell them apart.
const cases: Case[] = [];
for (const fold of ['archive', 'museum', 'library'])
  for (let i = 0; i < 8; i++)
    cases.push({
      id: `${fold}-${i}`,
      set: 'team-realistic',
      fold,
      question: 'What are the reading room rules?',
      answer: sentences[i % sentences.length]!,
      source,
      hallucinated: i % 2 === 1,
      type: i % 2 === 1 ? 'wrong_subject' : 'grounded',
    });
const wrongAnswers = new Set(cases.filter((c) => c.hallucinated).map((c) => c.answer.replace(/\.$/, '')));

function standIn(judge: (hypothesis: string) => boolean): EntailmentModel {
  return {
    name: 'stand-in',
    score: async (pairs) =>
      pairs.map(({ hypothesis }) =>
        judge(hypothesis)
          ? { entailment: 0.02, neutral: 0.03, contradiction: 0.95 }
          : { entailment: 0.95, neutral: 0.03, contradiction: 0.02 },
      ),
    close: async () => {},
  };
}

describe('the role of an entailment model in the aggregator', () => {
  const checks = assessAll(cases);

  it('lets a model flag when its flags keep held-out accuracy and precision', async () => {
    // Answers 1, 3 and 5 are wrong in every domain (odd i); the stand-in contradicts exactly those.
    const odd = new Set([1, 3, 5].map((i) => sentences[i]!.replace(/\.$/, '')));
    assert.deepEqual(odd, new Set([...wrongAnswers].filter((a) => odd.has(a))));
    const { assessed, info } = await assessWithModel(
      checks.assessed,
      standIn((h) => odd.has(h.replace(/\.$/, ''))),
    );
    const role = chooseModelRole(assessed, info);
    assert.equal(role.flags, true);
    assert.ok(role.asFlags[1].accuracy > role.asScore[1].accuracy);
    assert.ok(role.outcomes.filter((o) => o.flagged).every((o) => o.case.hallucinated));
  });

  it("keeps a model that adds nothing held out to scores, with the checks' verdicts", async () => {
    // Contradicts answers 0 to 3: two right and two wrong of every four it doubts.
    const doubted = new Set([0, 1, 2, 3].map((i) => sentences[i]!.replace(/\.$/, '')));
    const { assessed, info } = await assessWithModel(
      checks.assessed,
      standIn((h) => doubted.has(h.replace(/\.$/, ''))),
    );
    const role = chooseModelRole(assessed, info);
    assert.equal(role.flags, false);
    assert.ok(role.asFlags[1].accuracy <= role.asScore[1].accuracy);
    assert.deepEqual(
      role.outcomes.map((o) => o.flagged),
      role.outcomes.map(() => false),
    );
  });
});
