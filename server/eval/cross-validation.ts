// Cross-validated scoring: each fold (a realistic domain, or one half of HaluEval) is scored by a
// model fitted on every other fold, through the engine's own `decide`. No case is ever scored by a
// model that saw it.

import type { AggregatorModel } from '../src/engine/aggregate/model.js';
import { confidenceKinds, gradingKinds, supportKinds } from '../src/engine/checks/index.js';
import { entailmentKinds, entailmentPairs, entailmentSupportKinds } from '../src/engine/entailment.js';
import { answerRisk } from '../src/engine/risk.js';
import type { EntailmentScores } from '../src/engine/types.js';
import { type Assessment, assess, decide } from '../src/engine/validate.js';
import { type EntailmentModel, maxPairsPerCall } from '../src/verifiers/entailment/entailment-model.js';
import { type CaseSample, fitModel, type KindInfo, kindInfo, sampleOf } from './aggregator-fit.js';
import type { Case, SetName } from './datasets.js';

export interface Assessed {
  case: Case;
  assessment: Assessment;
  sample: CaseSample;
  ms: number;
}

export function assessAll(cases: Case[]): { assessed: Assessed[]; info: KindInfo } {
  const assessed = cases.map((c) => {
    const started = performance.now();
    const assessment = assess({ question: c.question, answer: c.answer, sources: [{ source_id: 'inline_text', text: c.source }] });
    const ms = performance.now() - started;
    return { case: c, assessment, sample: sampleOf(c, assessment), ms };
  });
  return { assessed, info: infoOf(assessed) };
}

/**
 * The cases assessed again with the entailment model's scores for their claims, as the engine's worker does: the
 * first pass names the pairs, the model scores them, the second pass weighs its signals beside the checks'.
 * `ms` adds the model's time to the checks'.
 */
export async function assessWithModel(assessed: Assessed[], model: EntailmentModel): Promise<{ assessed: Assessed[]; info: KindInfo }> {
  const scored: Assessed[] = [];
  for (const a of assessed) {
    const started = performance.now();
    const pairs = entailmentPairs(a.assessment);
    const scores: EntailmentScores[] = [];
    for (let from = 0; from < pairs.length; from += maxPairsPerCall)
      scores.push(...(await model.score(pairs.slice(from, from + maxPairsPerCall))));
    const request = { ...a.assessment.request, entailment: { scores: pairs.map((pair, i) => ({ pair, scores: scores[i]! })), weight: 1 } };
    const assessment = assess(request);
    scored.push({ case: a.case, assessment, sample: sampleOf(a.case, assessment), ms: a.ms + performance.now() - started });
  }
  return { assessed: scored, info: infoOf(scored) };
}

function infoOf(assessed: Assessed[]): KindInfo {
  return kindInfo(
    assessed.map((a) => a.sample),
    new Set([...supportKinds, ...entailmentSupportKinds]),
    // The model's kinds start as score alone; model-role.ts lets them flag where that measures better held out.
    new Set([...confidenceKinds, ...gradingKinds, ...entailmentKinds]),
  );
}

export interface Outcome {
  case: Case;
  flagged: boolean;
  /** The answer's risk: one minus its lowest claim score (one minus its confidence when it has no claims). */
  risk: number;
  /** A flagged claim overlaps the labelled wrong span. */
  located: boolean;
  /** Signal kinds that weighed towards a flag on a flagged claim, and answer-level kinds that made a finding. */
  flagKinds: string[];
  claims: { text: string; status: string; reasons: string[] }[];
  issues: string[];
}

export function outcomeOf(a: Assessed, model: AggregatorModel): Outcome {
  const { result, judgments } = decide(a.assessment, model);
  const c = a.case;
  const from = c.span === undefined ? -1 : c.answer.indexOf(c.span);
  const to = from + (c.span?.length ?? 0);
  const all = [...a.assessment.claims, ...(a.assessment.statement ? [a.assessment.statement] : [])];
  const flagKinds = new Set<string>();
  judgments.forEach((j, i) => {
    if (j.status === 'supported') return;
    for (const s of all[i]?.signals ?? []) if ((model.weights[s.kind] ?? 0) > 0 && s.verdict !== 'note') flagKinds.add(s.kind);
  });
  for (const s of a.assessment.answerSignals) if (model.answerKinds.includes(s.kind)) flagKinds.add(s.kind);
  return {
    case: c,
    flagged: result.issue_count > 0,
    risk: answerRisk(result),
    located: from >= 0 && result.claims.some((cl) => cl.status !== 'supported' && cl.start < to && cl.end > from),
    flagKinds: [...flagKinds],
    claims: result.claims.map((cl, i) => ({ text: cl.text, status: cl.status, reasons: judgments[i]?.reasons ?? [] })),
    issues: result.issues,
  };
}

/** Every case scored by the model fitted without its fold. */
export function crossValidate(assessed: Assessed[], info: KindInfo, exclude: ReadonlySet<string> = new Set()): Outcome[] {
  const folds = [...new Set(assessed.map((a) => a.case.fold))];
  const byId = new Map<string, Outcome>();
  for (const fold of folds) {
    const model = fitModel(
      assessed.filter((a) => a.case.fold !== fold).map((a) => a.sample),
      info,
      exclude,
    );
    for (const a of assessed) if (a.case.fold === fold) byId.set(`${a.case.set}/${a.case.id}`, outcomeOf(a, model));
  }
  return assessed.map((a) => byId.get(`${a.case.set}/${a.case.id}`)!);
}

export interface Metrics {
  cases: number;
  tp: number;
  fp: number;
  tn: number;
  fn: number;
  accuracy: number;
  precision: number;
  recall: number;
  f1: number;
  /** Wrong answers with a labelled span whose flagged claim overlaps it. */
  located: number;
  /** Wrong answers with a labelled span that were flagged (the issue's target counts located among these). */
  caught: number;
  /** Wrong answers with a labelled span. */
  spans: number;
}

export function metrics(outcomes: Outcome[]): Metrics {
  let tp = 0;
  let fp = 0;
  let tn = 0;
  let fn = 0;
  let located = 0;
  let caught = 0;
  let spans = 0;
  for (const o of outcomes) {
    if (o.flagged && o.case.hallucinated) tp++;
    else if (o.flagged) fp++;
    else if (o.case.hallucinated) fn++;
    else tn++;
    if (o.case.span !== undefined) {
      spans++;
      if (o.flagged) caught++;
      if (o.located) located++;
    }
  }
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp / Math.max(1, tp + fn);
  return {
    cases: outcomes.length,
    tp,
    fp,
    tn,
    fn,
    accuracy: (tp + tn) / Math.max(1, outcomes.length),
    precision,
    recall,
    f1: (2 * precision * recall) / Math.max(1e-9, precision + recall),
    located,
    caught,
    spans,
  };
}

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

/** Where the wrong span was located: among the wrong answers caught, then among all wrong answers. */
export function spanCell(m: Metrics): string {
  if (m.spans === 0) return '—';
  return `${m.located}/${m.caught} caught (${pct(m.located / Math.max(1, m.caught))}); ${m.located}/${m.spans} (${pct(m.located / m.spans)})`;
}

export const setNames: SetName[] = ['halueval', 'shared-realistic', 'team-realistic'];
