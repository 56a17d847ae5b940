// The aggregator's fitting: deterministic, sign-constrained, and reproducing the committed weights
// from the labelled cases (`npm run fit -- --check`).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type CaseSample, fitModel, kindInfo } from '../../eval/aggregator-fit.js';
import type { Case } from '../../eval/datasets.js';

const repo = fileURLToPath(new URL('../../..', import.meta.url));

function sample(id: string, hallucinated: boolean, claims: [Record<string, number>, 0 | 1][]): CaseSample {
  const c: Case = { id, set: 'team-realistic', fold: 'd', question: 'q', answer: 'a', source: 's', hallucinated, type: 'x' };
  return {
    case: c,
    group: 'realistic',
    claims: claims.map(([features, label]) => ({ features: new Map(Object.entries(features)), label })),
    denial: false,
    answerKinds: [],
  };
}

// A kind that marks wrong claims, one that fires on right and wrong alike, and a support kind.
const cases: CaseSample[] = [];
for (let i = 0; i < 40; i++) {
  cases.push(sample(`w${i}`, true, [[{ marks_wrong: 1, noise: i % 2 }, 1]]));
  cases.push(sample(`r${i}`, false, [[{ noise: i % 2, ...(i % 4 === 0 ? { support: 1 } : {}) }, 0]]));
}

describe('fitting the aggregator', () => {
  const info = kindInfo(cases, new Set(['support']));
  it('weighs the informative kind most, keeps support non-positive, and is deterministic', () => {
    const model = fitModel(cases, info);
    assert.ok((model.weights.marks_wrong ?? 0) > (model.weights.noise ?? 0));
    assert.ok((model.weights.support ?? 0) <= 0);
    assert.deepEqual(fitModel(cases, info), model);
  });
  it('places the threshold between right and wrong claims', () => {
    const model = fitModel(cases, info);
    const z = (f: Record<string, number>) => Object.entries(f).reduce((t, [k, x]) => t + (model.weights[k] ?? 0) * x, model.intercept);
    assert.ok(z({ marks_wrong: 1 }) > model.threshold);
    assert.ok(z({ noise: 1 }) <= model.threshold);
  });
  it('leaves an excluded kind out entirely', () => {
    assert.equal(fitModel(cases, info, new Set(['marks_wrong'])).weights.marks_wrong, undefined);
  });
  it('reproduces the committed weights.json and weights-entailment.json from the labelled cases', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/eval/fit.ts', '--check'], {
      cwd: repo,
      encoding: 'utf8',
      env: { ...process.env, ENGINE_MODEL_DIR: '' },
    });
    assert.equal(run.status, 0, run.stderr + run.stdout);
  });
});
