// What an entailment model's signals may do in the aggregator: flag claims beside the checks, or only move their
// scores. Decided by cross-validation, as every figure is: the model's kinds flag only when that gains held-out
// accuracy and keeps accuracy and precision at least where they are with its kinds as score alone, on HaluEval and on
// the realistic sets together; otherwise they rank answers without changing any verdict.
import { entailmentKinds } from '../src/engine/entailment.js';
import type { KindInfo } from './aggregator-fit.js';
import { type Assessed, crossValidate, type Metrics, metrics, type Outcome } from './cross-validation.js';

export interface ModelRole {
  /** Whether the model's kinds may flag a claim. */
  flags: boolean;
  /** The kinds as the aggregator fits them in the chosen role. */
  info: KindInfo;
  /** Held-out outcomes in the chosen role. */
  outcomes: Outcome[];
  /** Held-out figures of both roles: HaluEval, then the realistic sets together. */
  asFlags: [Metrics, Metrics];
  asScore: [Metrics, Metrics];
}

function asFlagsInfo(info: KindInfo): KindInfo {
  return { sign: info.sign, scoreOnly: new Set([...info.scoreOnly].filter((k) => !(entailmentKinds as readonly string[]).includes(k))) };
}

function figures(outcomes: Outcome[]): [Metrics, Metrics] {
  return [metrics(outcomes.filter((o) => o.case.set === 'halueval')), metrics(outcomes.filter((o) => o.case.set !== 'halueval'))];
}

/** `info` has the model's kinds as score alone (cross-validation.ts); the role that measures better held out. */
export function chooseModelRole(assessed: Assessed[], info: KindInfo): ModelRole {
  const scoreOutcomes = crossValidate(assessed, info);
  const flagsInfo = asFlagsInfo(info);
  const flagOutcomes = crossValidate(assessed, flagsInfo);
  const asScore = figures(scoreOutcomes);
  const asFlags = figures(flagOutcomes);
  // Flags must gain accuracy somewhere and lose nothing anywhere; on a tie the model only ranks.
  const flags =
    asFlags.every((m, i) => m.accuracy >= asScore[i]!.accuracy && m.precision >= asScore[i]!.precision) &&
    asFlags.some((m, i) => m.accuracy > asScore[i]!.accuracy);
  return flags
    ? { flags, info: flagsInfo, outcomes: flagOutcomes, asFlags, asScore }
    : { flags, info, outcomes: scoreOutcomes, asFlags, asScore };
}
