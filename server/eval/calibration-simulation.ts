// npm run eval -- --calibration: would an operating point fitted to a tenant's own reviewed cases beat the global one?
// Each realistic domain is a tenant whose reviewers decide by the case's label, in the order of its file. The first
// half is the tenant's history: a `supported_score` point is fitted on its older part and kept only when it beats the
// global point on the newer part (issue 33's guard), then fitted again on the whole half; the second half, never seen,
// measures the global point and the tenant's. Risks are the held-out ones of crossValidate.
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

interface Judged {
  risk: number;
  flagged: boolean;
  wrong: boolean;
}

function figures(cases: readonly Judged[], flag: (c: Judged) => boolean): { precision: number | null; accuracy: number } {
  const flagged = cases.filter(flag);
  const right = cases.filter((c) => flag(c) === c.wrong).length;
  return {
    precision: flagged.length > 0 ? flagged.filter((c) => c.wrong).length / flagged.length : null,
    accuracy: cases.length > 0 ? right / cases.length : 0,
  };
}

/** The lowest risk threshold whose flags reach `target` precision on `cases` (most recall), or null when none does. */
export function fitThreshold(cases: readonly Judged[], target: number): number | null {
  const candidates = [...new Set(cases.map((c) => c.risk))].sort((a, b) => a - b);
  for (const threshold of candidates) {
    const { precision } = figures(cases, (c) => c.risk >= threshold);
    if (precision !== null && precision >= target) return threshold;
  }
  return null;
}

/** Better by precision first, then accuracy; a point with no flags is no better. */
function beats(a: { precision: number | null; accuracy: number }, b: { precision: number | null; accuracy: number }): boolean {
  if (a.precision === null) return false;
  if (b.precision === null || a.precision !== b.precision) return a.precision > (b.precision ?? -1);
  return a.accuracy > b.accuracy;
}

export function simulateTenant(tenant: string, outcomes: readonly Outcome[], target: number): CalibrationRow {
  const cases: Judged[] = outcomes.map((o) => ({ risk: o.risk, flagged: o.flagged, wrong: o.case.hallucinated }));
  const half = Math.floor(cases.length / 2);
  const history = cases.slice(0, half);
  const later = cases.slice(half);
  const older = history.slice(0, Math.ceil(history.length * 0.6));
  const newer = history.slice(older.length);
  const trial = fitThreshold(older, target);
  const applied =
    trial !== null &&
    beats(
      figures(newer, (c) => c.risk >= trial),
      figures(newer, (c) => c.flagged),
    );
  const threshold = applied ? fitThreshold(history, target) : null;
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
