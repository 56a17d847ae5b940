// Engine agreement (issue 33, decision S105): the engine's verdict on each decided validation against its reviewers'.
// A validation is flagged when it has a finding that is an issue or was fixed; it is wrong by its reviewers when they
// rejected or edited it (or the external review rejected it), right when it was approved (or externally approved).
// For an edit the corrections say which claims were wrong (`claim:<index>`), so a finding on another claim was a
// false flag. Pure: the decided records come from history-store.ts.
import type { AgreementCounts, CategoryAgreement, EngineAgreement, FindingCategory, ReviewState } from '@groundcheck/contract';
import type { DecidedReview } from '../../cosmos/history-store.js';
import { addCounts, zeroCategories } from './counts.js';

/** Review states that decide a case, by what they say of the answer. */
export const wrongStates: readonly ReviewState[] = ['rejected', 'edited', 'external_rejected'];
export const rightStates: readonly ReviewState[] = ['approved', 'external_approved'];
export const decidedStates: readonly ReviewState[] = [...wrongStates, ...rightStates];

export const zeroAgreement = (): AgreementCounts => ({
  decisions: 0,
  flagged_wrong: 0,
  flagged_right: 0,
  unflagged_wrong: 0,
  unflagged_right: 0,
});

export interface AgreementTally {
  /** Counts per calendar day (UTC) of the validation, for the daily series and the months. */
  byDay: Map<string, AgreementCounts>;
  byCategory: Map<FindingCategory, { confirmed: number; overturned: number }>;
}

export function tallyAgreement(decided: readonly DecidedReview[]): AgreementTally {
  const tally: AgreementTally = { byDay: new Map(), byCategory: new Map() };
  for (const review of decided) {
    const wrong = wrongStates.includes(review.state);
    const flags = (review.findings ?? []).filter((finding) => finding.status !== 'passed');
    countAnswer(tally.byDay, review.created_at.slice(0, 10), flags.length > 0, wrong);
    const corrected = correctedClaims(review);
    for (const finding of flags) countFlag(tally.byCategory, finding.category, wrong && flagConfirmed(finding.claim_index, corrected));
  }
  return tally;
}

function countAnswer(byDay: AgreementTally['byDay'], day: string, flagged: boolean, wrong: boolean): void {
  const counts = byDay.get(day) ?? zeroAgreement();
  counts.decisions += 1;
  if (flagged) counts[wrong ? 'flagged_wrong' : 'flagged_right'] += 1;
  else counts[wrong ? 'unflagged_wrong' : 'unflagged_right'] += 1;
  byDay.set(day, counts);
}

function countFlag(byCategory: AgreementTally['byCategory'], category: FindingCategory, confirmed: boolean): void {
  const cell = byCategory.get(category) ?? { confirmed: 0, overturned: 0 };
  cell[confirmed ? 'confirmed' : 'overturned'] += 1;
  byCategory.set(category, cell);
}

/** On an answer found wrong: an edit names the wrong claims, so a finding on another claim was a false flag. */
function flagConfirmed(claim: number | null | undefined, corrected: Set<number> | null): boolean {
  return corrected === null || claim === null || claim === undefined || corrected.has(claim);
}

/** The claims an edit corrected, or null when the decision was not an edit naming claims. */
function correctedClaims(review: DecidedReview): Set<number> | null {
  if (review.state !== 'edited') return null;
  const claims = (review.user_corrections ?? []).flatMap((c) => {
    const match = /^claim:(\d{1,6})$/.exec(c.element);
    return match ? [Number(match[1])] : [];
  });
  return claims.length > 0 ? new Set(claims) : null;
}

function rates(counts: AgreementCounts): { precision: number | null; recall: number | null } {
  const flagged = counts.flagged_wrong + counts.flagged_right;
  const wrong = counts.flagged_wrong + counts.unflagged_wrong;
  return { precision: flagged > 0 ? counts.flagged_wrong / flagged : null, recall: wrong > 0 ? counts.flagged_wrong / wrong : null };
}

/** The payload's `engine_agreement` for the days given (oldest first), from the tally. */
export function engineAgreement(days: readonly string[], tally: AgreementTally): EngineAgreement {
  const months = new Map<string, AgreementCounts>();
  let total = zeroAgreement();
  for (const day of days) {
    const counts = tally.byDay.get(day) ?? zeroAgreement();
    total = addCounts(total, counts);
    const month = day.slice(0, 7);
    months.set(month, addCounts(months.get(month) ?? zeroAgreement(), counts));
  }
  const category = (name: FindingCategory): CategoryAgreement => {
    const { confirmed, overturned } = tally.byCategory.get(name) ?? { confirmed: 0, overturned: 0 };
    return { confirmed, overturned, precision: confirmed + overturned > 0 ? confirmed / (confirmed + overturned) : null };
  };
  const categories = Object.keys(zeroCategories()) as FindingCategory[];
  return {
    ...total,
    ...rates(total),
    by_category: Object.fromEntries(categories.map((name) => [name, category(name)])) as EngineAgreement['by_category'],
    monthly: [...months].map(([month, counts]) => ({ month, ...counts, ...rates(counts) })),
  };
}
