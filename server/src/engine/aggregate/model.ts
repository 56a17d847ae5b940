// The aggregator's models: a weight per signal kind, fitted by `npm run fit` (server/eval/fit.ts) and committed,
// which the engine reads at build time. weights.json weighs the checks alone (no entailment model, or it failed);
// weights-entailment.json the checks beside the shipped entailment model's signals, fitted on its scores.
import committed from './weights.json' with { type: 'json' };
import committedWithEntailment from './weights-entailment.json' with { type: 'json' };

export interface AggregatorModel {
  /** Weight per signal kind: flags' kinds are ≥ 0, support's ≤ 0; a kind not listed weighs 0. */
  weights: Record<string, number>;
  intercept: number;
  /** Linear score above which a claim is flagged (the point where its score is 0.5). */
  threshold: number;
  /** Kinds that lower a claim's score but cannot flag it: their held-out flags were not precise enough. */
  demoted: string[];
  /** Answer-level kinds that make an `incomplete_answer` finding. */
  answerKinds: string[];
}

export const committedModel: AggregatorModel = committed;
export const committedEntailmentModel: AggregatorModel = committedWithEntailment;
