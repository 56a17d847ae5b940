// The review state machine (decision rows 20-22), as data: the handler follows it, the tests
// generate every allowed and refused pair from it, and a test checks it against the table in
// docs/decisions.md. Any pair of state and action not listed answers 409 invalid_review_transition.
// What each action needs (a note, corrections, an external reference) is the contract's: its
// `ReviewRequest` shape for the action requires it, and the request is checked before the handler runs.
import type { AuditEventKind, ReviewAction, ReviewState } from '@groundcheck/contract';

export interface ReviewTransition {
  from: ReviewState;
  action: ReviewAction;
  to: ReviewState;
  auditEvent: AuditEventKind;
  /** The case is decided: the time to decision is counted. */
  closes: boolean;
}

export const reviewTransitions: readonly ReviewTransition[] = [
  { from: 'pending_review', action: 'approve', to: 'approved', auditEvent: 'approved', closes: true },
  { from: 'pending_review', action: 'reject', to: 'rejected', auditEvent: 'rejected', closes: true },
  { from: 'pending_review', action: 'edit', to: 'edited', auditEvent: 'edited', closes: true },
  {
    from: 'pending_review',
    action: 'handoff',
    to: 'handed_off',
    auditEvent: 'review_handed_off',
    closes: false,
  },
  {
    from: 'handed_off',
    action: 'external_approve',
    to: 'external_approved',
    auditEvent: 'external_review_approved',
    closes: true,
  },
  {
    from: 'handed_off',
    action: 'external_reject',
    to: 'external_rejected',
    auditEvent: 'external_review_rejected',
    closes: true,
  },
];

/** The transition `action` takes from `state`, or null when the table has none. */
export function transitionFor(state: ReviewState, action: ReviewAction): ReviewTransition | null {
  return reviewTransitions.find((t) => t.from === state && t.action === action) ?? null;
}
