// An operating point fitted to the tenant's own decided reviews (issue 33, decision S106), reported beside the
// current one. Validated over time: fitted on the older decisions, measured on the newer ones against what the
// validations were flagged with; suggested only when it is better there. Applying it is services/engine (S113).
import type { AgreementRates, Calibration } from '@groundcheck/contract';
import type { DecidedReview } from '../../cosmos/history-store.js';
import type { TenantCalibration } from '../../tenants/tenant.js';
import { wrongStates } from './engine-agreement.js';

/** The older share of the decisions that the point is fitted on; the rest measures it. */
export const olderShare = 0.7;

/** One decided answer as the fit reads it. */
export interface Decided {
  risk: number;
  flagged: boolean;
  wrong: boolean;
}

export function calibration(decided: readonly DecidedReview[], settings: TenantCalibration, currentSupportedScore: number): Calibration {
  const base = { mode: settings.mode, target_precision: settings.targetPrecision, current_supported_score: currentSupportedScore };
  if (settings.mode === 'off') return { ...base, status: 'off', decisions: 0, suggested: null };
  const cases = usable(decided);
  const wrong = cases.filter((c) => c.wrong).length;
  if (cases.length < settings.minDecisions || wrong < settings.minEach || cases.length - wrong < settings.minEach)
    return { ...base, status: 'too_few_decisions', decisions: cases.length, suggested: null };
  const older = cases.slice(0, Math.ceil(cases.length * olderShare));
  const newer = cases.slice(older.length);
  const trial = riskThreshold(older, settings.targetPrecision);
  const current = rates(newer, (c) => c.flagged);
  const fitted = trial === null ? null : rates(newer, (c) => c.risk >= trial);
  const final = fitted && beats(fitted, current) ? riskThreshold(cases, settings.targetPrecision) : null;
  const supported_score = final === null ? null : Math.round((1 - final) * 1000) / 1000;
  // A supported claim's score is never below the point it was judged at, so many answers sit exactly at one minus the
  // point in force; a fit landing there would suggest the point that is already in force.
  if (supported_score === null || fitted === null || supported_score === currentSupportedScore)
    return { ...base, status: 'no_better_point', decisions: cases.length, suggested: null };
  return {
    ...base,
    status: 'suggested',
    decisions: cases.length,
    suggested: {
      supported_score,
      fitted_on: older.length,
      measured_on: newer.length,
      current,
      fitted,
    },
  };
}

/** The decisions that recorded a risk (records made before it was kept have none), oldest first. */
function usable(decided: readonly DecidedReview[]): Decided[] {
  return decided
    .filter((review): review is DecidedReview & { risk: number } => typeof review.risk === 'number')
    .sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0))
    .map((review) => ({
      risk: review.risk,
      flagged: (review.findings ?? []).some((finding) => finding.status !== 'passed'),
      wrong: wrongStates.includes(review.state),
    }));
}

/** The lowest risk whose flags reach `target` precision (the most recall), or null when none does. */
export function riskThreshold(cases: readonly Decided[], target: number): number | null {
  for (const threshold of [...new Set(cases.map((c) => c.risk))].sort((a, b) => a - b)) {
    const { precision } = rates(cases, (c) => c.risk >= threshold);
    if (precision !== null && precision >= target) return threshold;
  }
  return null;
}

export function rates<C extends Pick<Decided, 'wrong'>>(cases: readonly C[], flag: (c: C) => boolean): AgreementRates {
  const flagged = cases.filter(flag);
  const wrong = cases.filter((c) => c.wrong).length;
  const caught = flagged.filter((c) => c.wrong).length;
  return { precision: flagged.length > 0 ? caught / flagged.length : null, recall: wrong > 0 ? caught / wrong : null };
}

/** Higher precision, or as high with higher recall; a point that flags nothing is no better. */
export function beats(a: AgreementRates, b: AgreementRates): boolean {
  if (a.precision === null) return false;
  if (b.precision === null || a.precision !== b.precision) return a.precision > (b.precision ?? -1);
  return (a.recall ?? 0) > (b.recall ?? 0);
}
