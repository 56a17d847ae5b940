// npm run eval -- --calibration: would an operating point fitted to a tenant's own reviewed cases beat the global one?
// Each realistic domain is a tenant whose reviewers decide by the case's label, in the order of its file. The first
// half is the tenant's history: a point is fitted on its older part by the server's own method (calibration.ts) and
// kept only when it beats the global point on the newer part, then fitted again on the whole half; the second half,
// never seen, measures the global point and the tenant's. Risks are the held-out ones of crossValidate.
import { beats, type Decided, olderShare, rates, riskThreshold } from '../src/services/analytics/calibration.js';
import type { Outcome } from './cross-validation.js';

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
function figures(cases: readonly Decided[], flag: (c: Decided) => boolean): { precision: number | null; accuracy: number } {
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
