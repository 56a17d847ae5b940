// The audit event kinds in words. Typed by the contract's enum, so a kind the contract adds is a
// compile error here until it has its words.
import type { AuditEventKind } from '@groundcheck/sdk';

export const kindLabels: Record<AuditEventKind, string> = {
  validation_created: 'Validation recorded',
  review_required: 'Review required',
  approved: 'Approved',
  rejected: 'Rejected',
  edited: 'Corrected by a reviewer',
  review_handed_off: 'Handed to outside review',
  external_review_approved: 'Approved in outside review',
  external_review_rejected: 'Rejected in outside review',
  account_deleted: 'Account deleted',
  operating_point_applied: 'Operating point applied',
};

export const kinds = Object.keys(kindLabels) as AuditEventKind[];

export function isKind(value: string): value is AuditEventKind {
  return Object.hasOwn(kindLabels, value);
}
