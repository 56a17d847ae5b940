// The held-out documents: team cases written blind to the engine and kept out of development (no reading
// of the engine was written after looking at them). They are scored as a deployment scores a document it
// has never seen: by the aggregator fitted on every development case, not by cross-validation.
import type { EntailmentModel } from '../src/verifiers/entailment/entailment-model.js';
import { fitModel, type KindInfo } from './aggregator-fit.js';
import { type Assessed, assessAll, assessWithModel, metrics, type Outcome, outcomeOf } from './cross-validation.js';
import type { Case } from './datasets.js';

/** The held-out cases assessed as the development cases are (with the model's scores when there is one). */
export async function assessHoldout(cases: Case[], model: EntailmentModel | null): Promise<Assessed[]> {
  if (cases.length === 0) return [];
  const checks = assessAll(cases).assessed;
  return model ? (await assessWithModel(checks, model)).assessed : checks;
}

/** Their outcomes under the aggregator fitted on all of `development`, assessed the same way. */
export function holdoutOutcomes(held: Assessed[], development: Assessed[], info: KindInfo): Outcome[] {
  if (held.length === 0) return [];
  const fitted = fitModel(
    development.map((a) => a.sample),
    info,
  );
  return held.map((a) => outcomeOf(a, fitted));
}

/** The held-out figures' one line per fold and one for all: accuracy, precision, recall, tp/fp/tn/fn. */
export function holdoutRows(outcomes: Outcome[]): string[] {
  const line = (name: string, list: Outcome[]) => {
    const m = metrics(list);
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
    return `| ${name} | ${m.cases} | ${pct(m.accuracy)} | ${m.precision.toFixed(3)} | ${m.recall.toFixed(3)} | ${m.tp}/${m.fp}/${m.tn}/${m.fn} |`;
  };
  const folds = [...new Set(outcomes.map((o) => o.case.fold))].sort();
  return [
    ...folds.map((fold) =>
      line(
        fold,
        outcomes.filter((o) => o.case.fold === fold),
      ),
    ),
    line('all held-out documents', outcomes),
  ];
}
