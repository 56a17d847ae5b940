// Counts keyed by the contract's enum values (decision row 5: every value is a key, even at 0). The
// zero objects are typed by the contract's count schemas, so a value added to an enum there fails to
// compile here until it is counted.
import type { CategoryCounts, ConfidenceCounts, ModeCounts, ReviewStateCounts, SeverityCounts } from '@groundcheck/contract';

export const zeroModes = (): ModeCounts => ({ validate: 0, generate: 0, validate_and_fix: 0 });
export const zeroSeverities = (): SeverityCounts => ({ none: 0, low: 0, medium: 0, high: 0, critical: 0 });
export const zeroConfidenceLevels = (): ConfidenceCounts => ({ high: 0, medium: 0, low: 0 });
export const zeroCategories = (): CategoryCounts => ({
  contradicted_claim: 0,
  unsupported_claim: 0,
  source_conflict: 0,
  incomplete_answer: 0,
  source_unavailable: 0,
  verifier_unavailable: 0,
});
export const zeroReviewStates = (): ReviewStateCounts => ({
  pending_review: 0,
  approved: 0,
  rejected: 0,
  edited: 0,
  handed_off: 0,
  external_approved: 0,
  external_rejected: 0,
});

/** Key by key sum of two counts of one shape. */
export function addCounts<T extends object>(a: T, b: T): T {
  const sum = { ...a } as Record<string, number>;
  for (const [key, value] of Object.entries(b as Record<string, number>)) if (Object.hasOwn(sum, key)) sum[key]! += value;
  return sum as T;
}

/** The patch path of `key`'s count in `group`, or none when the counts do not hold it (`not_required` is not counted). */
export function countPath<T extends object>(group: string, zero: T, key: string): string[] {
  return Object.hasOwn(zero, key) ? [`${group}/${key}`] : [];
}
