// One aggregator turns a claim's signals into its status and score: a logistic model over the
// strongest signal of each kind. Flags need the non-demoted kinds to pass the threshold; demoted
// kinds only lower the score. The status of a flag is the verdict of the kind that weighs most.
import type { Signal } from '../checks/check.js';
import type { ReadPassage } from '../evidence/retrieval.js';
import type { ClaimStatus } from '../types.js';
import type { AggregatorModel } from './model.js';

export interface Judgment {
  status: ClaimStatus;
  score: number;
  /** Passages that decided, with their relation to the claim. */
  evidence: { passage: ReadPassage; relation: 'supports' | 'contradicts' | 'related' }[];
  /** Why the claim is not supported, one short sentence each, strongest first. */
  reasons: string[];
  /** For a contradicted figure: the claim-relative span and the sources' value, for fixes. */
  replacement: { start: number; end: number; text: string } | undefined;
  /** For a claim the sources state more narrowly: their sentence, for fixes. */
  restatement: string | undefined;
  /** Distinct sources that disagree with one another on this claim's figure. */
  conflictingSources: number[];
}

interface Contribution {
  signal: Signal;
  weight: number;
}

/** The strongest signal of each kind, with its weighted contribution. */
function contributions(signals: Signal[], model: AggregatorModel): Contribution[] {
  const strongest = new Map<string, Signal>();
  for (const s of signals) {
    if (s.verdict === 'note') continue;
    const held = strongest.get(s.kind);
    if (!held || s.strength > held.strength) strongest.set(s.kind, s);
  }
  return [...strongest.values()]
    .map((signal) => ({ signal, weight: (model.weights[signal.kind] ?? 0) * signal.strength }))
    .filter((c) => c.weight !== 0)
    .sort((a, b) => b.weight - a.weight);
}

/** The linear score of a claim: the intercept plus the weighted signals, with or without the demoted kinds. */
function linearScore(found: Contribution[], model: AggregatorModel, withDemoted: boolean): number {
  return found.filter((c) => withDemoted || !model.demoted.includes(c.signal.kind)).reduce((z, c) => z + c.weight, model.intercept);
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}

/**
 * The claim's judgment. A claim is flagged when its non-demoted signals pass the fitted threshold;
 * `supportedScore` (a tenant threshold, 0.5 by default, where 0.5 is the fitted point) moves it.
 * `score` is the model's probability that the claim holds, on the side of the flagging point its status is: a flagged
 * claim's below it, a supported claim's at or above it.
 */
export function aggregate(signals: Signal[], bound: ReadPassage[], model: AggregatorModel, supportedScore: number): Judgment {
  const found = contributions(signals, model);
  const flagScore = sigmoid(model.threshold - linearScore(found, model, false));
  // The model's probability that the claim holds, every weighed signal included.
  const score = sigmoid(-linearScore(found, model, true));
  const conflictingSources = [...new Set(signals.flatMap((s) => s.conflictingSources ?? []))];
  if (flagScore >= supportedScore) {
    // A passage that a weighed flag points at (a figure it contradicts, a restriction it states) is
    // not shown as support, even when the claim passes on the whole.
    const disputed = new Set(found.filter((c) => c.weight > 0 && c.signal.verdict !== 'supported').map((c) => c.signal.passage?.id));
    return {
      status: 'supported',
      // Demoted kinds (and a score-only model) rank supported claims among themselves, never below the point that
      // would flag them: a score under `supportedScore` always means a flag, as a flagged claim's is always under it.
      score: round(Math.max(score, supportedScore)),
      evidence: bound.map((passage) => ({ passage, relation: disputed.has(passage.id) ? ('related' as const) : ('supports' as const) })),
      reasons: [],
      replacement: undefined,
      restatement: undefined,
      conflictingSources,
    };
  }
  const flags = found.filter((c) => c.weight > 0 && c.signal.verdict !== 'supported');
  const lead = flags.find((c) => !model.demoted.includes(c.signal.kind)) ?? flags[0];
  const status: ClaimStatus = lead?.signal.verdict === 'contradicted' ? 'contradicted' : 'unsupported';
  const shown = flags.filter((c) => c.signal.passage).map((c) => c.signal);
  const evidence: Judgment['evidence'] = shown.map((s) => ({
    passage: s.passage!,
    relation: s.verdict === 'contradicted' && status === 'contradicted' ? ('contradicts' as const) : ('related' as const),
  }));
  for (const passage of bound)
    if (!evidence.some((e) => e.passage.id === passage.id)) evidence.push({ passage, relation: 'related' as const });
  return {
    status,
    score: round(Math.min(score, flagScore)),
    evidence: evidence.filter((e, i) => evidence.findIndex((o) => o.passage.id === e.passage.id) === i),
    reasons: [...new Set(flags.map((c) => c.signal.reason))],
    replacement: status === 'contradicted' ? flags.find((c) => c.signal.replacement)?.signal.replacement : undefined,
    restatement: flags.find((c) => c.signal.restatement)?.signal.restatement,
    conflictingSources,
  };
}
