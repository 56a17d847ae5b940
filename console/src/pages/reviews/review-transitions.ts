// The review actions a case offers in each state: the state machine of decision "Review state
// machine" (operation reviewValidation). Every other state is final, or was never under review.
import type { ReviewAction, ReviewState } from '@groundcheck/sdk';

const offered: Partial<Record<ReviewState, ReviewAction[]>> = {
  pending_review: ['approve', 'reject', 'edit', 'handoff'],
  handed_off: ['external_approve', 'external_reject'],
};

export function actionsFor(state: ReviewState): ReviewAction[] {
  return offered[state] ?? [];
}
