// How the review screens name states, actions, levels and modes: the contract's enums in words.
import type { ConfidenceLevel, Mode, ReviewAction, ReviewState } from '@groundcheck/sdk';

export const stateWords: Record<ReviewState, string> = {
  not_required: 'Not required',
  pending_review: 'Pending review',
  approved: 'Approved',
  rejected: 'Rejected',
  edited: 'Edited',
  handed_off: 'Handed off',
  external_approved: 'Approved externally',
  external_rejected: 'Rejected externally',
};

/** What a history entry says happened, in the past tense. */
export const actionWords: Record<ReviewAction, string> = {
  approve: 'Approved',
  reject: 'Rejected',
  edit: 'Edited',
  handoff: 'Handed off',
  external_approve: 'Recorded the external approval',
  external_reject: 'Recorded the external rejection',
};

export const confidenceWords: Record<ConfidenceLevel, string> = { high: 'High', medium: 'Medium', low: 'Low' };

export const modeWords: Record<Mode, string> = { validate: 'Validate', generate: 'Generate', validate_and_fix: 'Validate and fix' };
