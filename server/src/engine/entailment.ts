// A local entailment model's scores as one more signal per claim for the aggregator. The model runs
// outside the engine (in the worker, between two passes), so the engine stays pure and synchronous:
// the first pass names the (passage, claim) pairs to score, the second reads their scores from the
// request and weighs them beside the checks' signals.
import type { AggregatorModel } from './aggregate/model.js';
import type { Signal } from './checks/check.js';
import type { ClaimReading } from './claims/reading.js';
import type { ReadPassage } from './evidence/retrieval.js';
import type { EngineRequest, EntailmentInput, EntailmentPair } from './types.js';
import type { Assessment } from './validate.js';

/** Passages per claim that the model reads: the claim's best-bound ones. */
const passagesPerClaim = 3;
export const entailmentKinds = ['entailment_supported', 'entailment_contradicted', 'entailment_unsupported'] as const;
/** The model's kind that speaks for a claim: its weight is fitted ≤ 0, as the checks' support kinds are. */
export const entailmentSupportKinds: ReadonlySet<string> = new Set(['entailment_supported']);
const verdicts = {
  entailment_supported: 'supported',
  entailment_contradicted: 'contradicted',
  entailment_unsupported: 'unsupported',
} as const satisfies Record<(typeof entailmentKinds)[number], Signal['verdict']>;

/** The pairs a model should score for an assessed answer: each claim against its best-bound passages. */
export function entailmentPairs(assessment: Assessment): EntailmentPair[] {
  return assessment.claims.flatMap(({ reading }) =>
    readsAsProposition(reading)
      ? reading.bound.slice(0, passagesPerClaim).map((passage) => ({ premise: passage.text, hypothesis: reading.text }))
      : [],
  );
}

/**
 * A bare answer (a name, a figure, a date: no verb) states nothing an entailment model can weigh on its own; what it
 * asserts lives in the question, which the model does not read. The checks judge it alone.
 */
function readsAsProposition(reading: ClaimReading): boolean {
  return !reading.bare;
}

/** The model's signals for one claim: entailed by its best passage, contradicted by one, or neither. */
export function entailmentSignals(reading: ClaimReading, input: EntailmentInput | undefined): Signal[] {
  if (!input || !readsAsProposition(reading)) return [];
  const scored = reading.bound.slice(0, passagesPerClaim).flatMap((passage) => {
    const found = input.scores.find((s) => s.pair.hypothesis === reading.text && s.pair.premise === passage.text);
    return found ? [{ passage, ...found.scores }] : [];
  });
  if (scored.length === 0) return [];
  const entailed = scored.reduce((best, s) => (s.entailment > best.entailment ? s : best));
  const contradicted = scored.reduce((best, s) => (s.contradiction > best.contradiction ? s : best));
  const signal = (kind: (typeof entailmentKinds)[number], strength: number, reason: string, passage: ReadPassage): Signal[] => [
    { kind, verdict: verdicts[kind], strength, reason, passage },
  ];
  // Support is always given, as the model's probability: the aggregator weighs how sure the model is. A flag is given
  // only when the model leans that way, so that its reason is never shown for a claim the model reads as stated.
  const support = signal(
    'entailment_supported',
    entailed.entailment,
    'The entailment model reads the passage as stating the claim.',
    entailed.passage,
  );
  if (contradicted.contradiction >= 0.5)
    return [
      ...support,
      ...signal(
        'entailment_contradicted',
        contradicted.contradiction,
        'The entailment model reads the passage as saying otherwise.',
        contradicted.passage,
      ),
    ];
  if (entailed.entailment < 0.5)
    return [
      ...support,
      ...signal(
        'entailment_unsupported',
        1 - entailed.entailment,
        'The entailment model finds no passage that states the claim.',
        entailed.passage,
      ),
    ];
  return support;
}

/**
 * The model's kinds weighed as the tenant asks (`engine.entailment_weight`, a factor on their fitted weights: 1 keeps
 * the fit, 0 leaves the model out of the decision).
 */
export function withEntailmentWeight(model: AggregatorModel, request: EngineRequest): AggregatorModel {
  const factor = request.entailment?.weight;
  if (factor === undefined || factor === 1) return model;
  const weights = { ...model.weights };
  for (const kind of entailmentKinds) if (kind in weights) weights[kind] = weights[kind]! * factor;
  return { ...model, weights };
}

/** Whether the model's signal took part in a claim's judgment. */
export function usedEntailment(signals: Signal[]): boolean {
  return signals.some((s) => (entailmentKinds as readonly string[]).includes(s.kind));
}
