// The entailment model's signal as the engine weighs it: the pairs it names for scoring, and what
// scores read back from the request do to a claim's verdict. The scores here are written by hand.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type AggregatorModel, committedEntailmentModel, committedModel } from '../../src/engine/aggregate/model.js';
import { entailmentPairs } from '../../src/engine/entailment.js';
import type { EngineRequest } from '../../src/engine/index.js';
import { assess, validateDetailed } from '../../src/engine/validate.js';

const request: EngineRequest = {
  question: 'When does the library open on Saturdays?',
  answer: 'The library opens at 9 on Saturdays.',
  sources: [{ source_id: 'src_1', text: 'Opening hours. On Saturdays the library opens at 9 in the morning and closes at 1.' }],
};

function scored(scores: { entailment: number; contradiction: number; neutral: number }, weight: number): EngineRequest {
  const pairs = entailmentPairs(assess(request));
  return { ...request, entailment: { scores: pairs.map((pair) => ({ pair, scores })), weight } };
}

describe('the entailment signal', () => {
  test('names each claim with its bound passages, the claim as the hypothesis', () => {
    const pairs = entailmentPairs(assess(request));
    assert.ok(pairs.length >= 1);
    assert.ok(pairs.every((p) => p.hypothesis === 'The library opens at 9 on Saturdays' && request.sources[0]!.text.includes(p.premise)));
  });

  test('without scores the engine decides as it always does, and no claim names the model', () => {
    const plain = validateDetailed(request).result;
    assert.deepEqual(
      plain.claims.map((c) => c.verifier),
      [undefined],
    );
    assert.equal(plain.claims[0]!.status, 'supported');
  });

  // A model written by hand, so that what is tested is how the signals are weighed, not what the fit made of them.
  const model: AggregatorModel = {
    ...committedModel,
    weights: { ...committedModel.weights, entailment_supported: -1, entailment_contradicted: 2, entailment_unsupported: 1 },
    demoted: committedModel.demoted.filter((kind) => !kind.startsWith('entailment_')),
  };

  test('a confident contradiction, weighed heavily enough, flags a claim the checks found supported', () => {
    const result = validateDetailed(scored({ entailment: 0.01, contradiction: 0.98, neutral: 0.01 }, 3), model).result;
    assert.equal(result.claims[0]!.status, 'contradicted');
    assert.equal(result.claims[0]!.verifier, 'onnx');
    assert.match(result.findings[0]!.description, /entailment model reads the passage as saying otherwise/);
  });

  test('engine.entailment_weight is a factor on the fitted weights: 0 leaves the model out of the decision', () => {
    const result = validateDetailed(scored({ entailment: 0.01, contradiction: 0.98, neutral: 0.01 }, 0), model).result;
    assert.equal(result.claims[0]!.status, 'supported');
    assert.equal(result.claims[0]!.score, validateDetailed(request, model).result.claims[0]!.score);
  });

  test('entailment lowers no score: a supported claim stays supported and names the model', () => {
    const result = validateDetailed(scored({ entailment: 0.97, contradiction: 0.01, neutral: 0.02 }, 1), model).result;
    assert.equal(result.claims[0]!.status, 'supported');
    assert.equal(result.claims[0]!.verifier, 'onnx');
    assert.ok(result.claims[0]!.score >= validateDetailed(request, model).result.claims[0]!.score);
  });

  test('with scores and no model given, the engine weighs them by the aggregator fitted on the shipped model', () => {
    const withScores = scored({ entailment: 0.2, contradiction: 0.7, neutral: 0.1 }, 1);
    assert.deepEqual(validateDetailed(withScores).result, validateDetailed(withScores, committedEntailmentModel).result);
    assert.deepEqual(validateDetailed(request).result, validateDetailed(request, committedModel).result);
  });

  test('a bare answer (a name, a figure) is left to the checks: the model is not asked about it', () => {
    const bare: EngineRequest = { ...request, question: 'At what time does the library open on Saturdays?', answer: 'At 9.' };
    assert.deepEqual(entailmentPairs(assess(bare)), []);
  });
});
