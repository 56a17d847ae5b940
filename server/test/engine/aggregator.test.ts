// The aggregator on its own: hand-made signals and a hand-made model, so that each rule is seen
// without any check in the way.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { aggregate } from '../../src/engine/aggregate/aggregator.js';
import type { AggregatorModel } from '../../src/engine/aggregate/model.js';
import { committedModel } from '../../src/engine/aggregate/model.js';
import { type Signal, signal } from '../../src/engine/checks/check.js';
import type { ReadPassage } from '../../src/engine/evidence/retrieval.js';

const model: AggregatorModel = {
  weights: { price_wrong: 3, word_missing: 1, hint: 2.5, echo: -2 },
  intercept: -1,
  threshold: 0.5,
  demoted: ['hint'],
  answerKinds: [],
};

function judge(signals: Signal[], supportedScore = 0.5) {
  return aggregate(signals, [], model, supportedScore);
}

describe('aggregator', () => {
  it('supports a claim without signals, with a score above one half', () => {
    const j = judge([]);
    assert.equal(j.status, 'supported');
    assert.ok(j.score > 0.5);
  });
  it('flags a claim whose weighted signals pass the threshold, with the lead signal deciding the status', () => {
    const j = judge([
      signal('word_missing', 'unsupported', 'a word is missing'),
      signal('price_wrong', 'contradicted', 'the price differs'),
    ]);
    assert.equal(j.status, 'contradicted');
    assert.deepEqual(j.reasons, ['the price differs', 'a word is missing']);
    assert.ok(j.score < 0.5);
  });
  it('leaves a claim supported when one weak signal does not reach the threshold', () => {
    assert.equal(judge([signal('word_missing', 'unsupported', 'a word is missing')]).status, 'supported');
  });
  it("shows a supported claim's passages as support, but not one that a weighed flag points at", () => {
    const passage = (id: number) => ({ id, text: `passage ${id}` }) as unknown as ReadPassage;
    const [restricting, plain] = [passage(1), passage(2)];
    const j = aggregate(
      [{ ...signal('word_missing', 'unsupported', 'a limit is dropped'), passage: restricting }],
      [restricting, plain],
      model,
      0.5,
    );
    assert.equal(j.status, 'supported');
    assert.deepEqual(
      j.evidence.map((e) => [e.passage.id, e.relation]),
      [
        [1, 'related'],
        [2, 'supports'],
      ],
    );
  });
  it('takes the strongest signal of a kind once, scaled by its strength', () => {
    const weak = { ...signal('price_wrong', 'contradicted', 'x'), strength: 0.2 };
    assert.equal(judge([weak, weak, weak]).status, 'supported');
    assert.equal(judge([weak, signal('price_wrong', 'contradicted', 'x')]).status, 'contradicted');
  });
  it('lets a demoted kind lower the score but never flag', () => {
    const demoted = judge([signal('hint', 'unsupported', 'a hint')]);
    assert.equal(demoted.status, 'supported');
    assert.ok(demoted.score < judge([]).score);
  });
  it("keeps a supported claim's score at or above the flagging point, however far demoted kinds lower it", () => {
    const doubted = judge([signal('hint', 'unsupported', 'a hint'), signal('word_missing', 'unsupported', 'a word is missing')]);
    assert.equal(doubted.status, 'supported');
    assert.equal(doubted.score, 0.5);
    assert.equal(judge([signal('hint', 'unsupported', 'a hint')], 0.6).score, 0.6);
  });
  it('counts support against flags', () => {
    const j = judge([signal('price_wrong', 'contradicted', 'x'), signal('echo', 'supported', 'verbatim')]);
    assert.equal(j.status, 'supported');
  });
  it('moves the flagging point with the tenant threshold', () => {
    const signals = [signal('word_missing', 'unsupported', 'a word is missing')];
    assert.equal(judge(signals, 0.5).status, 'supported');
    assert.equal(judge(signals, 0.9).status, 'unsupported');
  });
  it('carries the sources that disagree from notes, which never flag', () => {
    const j = judge([signal('source_conflict', 'note', 'two values', { conflictingSources: [0, 2] })]);
    assert.equal(j.status, 'supported');
    assert.deepEqual(j.conflictingSources, [0, 2]);
  });
});

describe('the committed model', () => {
  it('weighs flags up and support down, and demotes only kinds it weighs', () => {
    assert.ok(Object.keys(committedModel.weights).length > 0);
    for (const kind of committedModel.demoted) assert.ok(kind in committedModel.weights, kind);
    assert.ok((committedModel.weights.verbatim_answer ?? 0) <= 0);
    assert.ok((committedModel.weights.figure_contradicted ?? 0) > 0);
  });
});
