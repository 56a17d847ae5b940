// The words a person reads for the contract's keys. Each map is keyed by the contract's own type, so a
// new mode, review state or finding category fails the type check until it has a name here.
import type { CategoryCounts, ModeCounts, ReviewStateCounts } from '@groundcheck/sdk';

export const modeLabels: Record<keyof ModeCounts, string> = {
  validate: 'Validate',
  generate: 'Generate',
  validate_and_fix: 'Validate and fix',
};

export const reviewStateLabels: Record<keyof ReviewStateCounts, string> = {
  pending_review: 'Pending review',
  approved: 'Approved',
  rejected: 'Rejected',
  edited: 'Edited',
  handed_off: 'Handed off',
  external_approved: 'Approved externally',
  external_rejected: 'Rejected externally',
};

export const categoryLabels: Record<keyof CategoryCounts, string> = {
  contradicted_claim: 'Contradicted claim',
  unsupported_claim: 'Unsupported claim',
  source_conflict: 'Source conflict',
  incomplete_answer: 'Incomplete answer',
  source_unavailable: 'Source unavailable',
  verifier_unavailable: 'Verifier unavailable',
};

/** The entries of a count map in the order of its labels, named for display. */
export function labelled<Key extends string>(labels: Record<Key, string>, counts: Record<Key, number>): { name: string; value: number }[] {
  return (Object.keys(labels) as Key[]).map((key) => ({ name: labels[key], value: counts[key] }));
}
