// npm run eval -- --calibration: would an operating point fitted to a tenant's own reviewed cases beat the global one?
// Each realistic domain is a tenant whose reviewers decide by the case's label, in the order of its file. The first
// half is the tenant's history: a point is fitted on its older part by the server's own method (calibration.ts) and
// kept only when it beats the global point on the newer part, then fitted again on the whole half; the second half,
// never seen, measures the global point and the tenant's. Risks are the held-out ones of crossValidate.
// Beside the threshold, the aggregator's weights refitted per tenant (issue 33 allows it where it beats the threshold
// alone by the same test): fitted on the tenant's first half alone, and on the other domains with it; both measured
// on the second half.
import { beats, type Decided, olderShare, rates, riskThreshold } from '../src/services/analytics/calibration.js';
import { fitModel, type KindInfo } from './aggregator-fit.js';
import { type Assessed, type Outcome, outcomeOf } from './cross-validation.js';

export interface CalibrationRow {
  tenant: string;
  /** Decisions the fit rests on (the first half). */
  history: number;
  applied: boolean;
  /** The fitted risk threshold (flag at risk ≥ it), when applied. */
  threshold: number | null;
  global: { precision: number | null; accuracy: number };
  fitted: { precision: number | null; accuracy: number };
  measured: number;
}

/** Precision (from the server's rates) and accuracy of flagging by `flag`. */
export function figures<C extends Pick<Decided, 'wrong'>>(
  cases: readonly C[],
  flag: (c: C) => boolean,
): { precision: number | null; accuracy: number } {
  const right = cases.filter((c) => flag(c) === c.wrong).length;
  return { precision: rates(cases, flag).precision, accuracy: cases.length > 0 ? right / cases.length : 0 };
}

export function simulateTenant(tenant: string, outcomes: readonly Outcome[], target: number): CalibrationRow {
  const cases: Decided[] = outcomes.map((o) => ({ risk: o.risk, flagged: o.flagged, wrong: o.case.hallucinated }));
  const half = Math.floor(cases.length / 2);
  const history = cases.slice(0, half);
  const later = cases.slice(half);
  const older = history.slice(0, Math.ceil(history.length * olderShare));
  const newer = history.slice(older.length);
  const trial = riskThreshold(older, target);
  const applied =
    trial !== null &&
    beats(
      rates(newer, (c) => c.risk >= trial),
      rates(newer, (c) => c.flagged),
    );
  const threshold = applied ? riskThreshold(history, target) : null;
  return {
    tenant,
    history: history.length,
    applied: threshold !== null,
    threshold,
    global: figures(later, (c) => c.flagged),
    fitted: threshold === null ? figures(later, (c) => c.flagged) : figures(later, (c) => c.risk >= threshold),
    measured: later.length,
  };
}

/** One case of a tenant's second half: whether it was flagged, and whether the reviewers found it wrong. */
export interface Verdict {
  flagged: boolean;
  wrong: boolean;
}

export interface RefitRow {
  tenant: string;
  /** Weights fitted on the tenant's first half alone. */
  ownCases: Verdict[];
  /** Weights fitted on the other domains and the tenant's first half. */
  withOthers: Verdict[];
}

/**
 * The aggregator refitted for one tenant (`tenant`, its cases in file order) and measured on the second half of its
 * cases, which neither fit sees; `others` are the cases of every other domain.
 */
export function refitTenant(tenant: string, cases: readonly Assessed[], others: readonly Assessed[], info: KindInfo): RefitRow {
  const half = Math.floor(cases.length / 2);
  const history = cases.slice(0, half).map((a) => a.sample);
  const later = cases.slice(half);
  const verdicts = (model: ReturnType<typeof fitModel>) =>
    later.map((a) => ({ flagged: outcomeOf(a, model).flagged, wrong: a.case.hallucinated }));
  return {
    tenant,
    ownCases: verdicts(fitModel(history, info)),
    withOthers: verdicts(fitModel([...others.map((a) => a.sample), ...history], info)),
  };
}
