// A history record as the contract's `ValidationRecord` shows it.

import type { ValidationRecord } from '@groundcheck/contract';
import type { HistoryItem } from '../../cosmos/history-store.js';

/** The record as the contract shows it: internal fields (tenant, expiry, outbox, Cosmos' own) stay inside. */
export function publicRecord(item: HistoryItem): ValidationRecord {
  return {
    validation_id: item.validation_id,
    mode: item.mode,
    created_at: item.created_at,
    expires_at: item.expires_at,
    question: item.question,
    user: item.user,
    severity: item.severity,
    confidence_level: item.confidence_level,
    issue_count: item.issue_count,
    issues: item.issues,
    findings: item.findings,
    source_conflict_count: item.source_conflict_count,
    source_groups: item.source_groups,
    output_excerpt: item.output_excerpt,
    // Records made before the history kept the answer have none of these: absent, not empty.
    ...(item.output === undefined ? {} : { output: item.output }),
    ...(item.claims === undefined ? {} : { claims: item.claims }),
    ...(item.sources === undefined ? {} : { sources: item.sources }),
    user_corrections: item.user_corrections ?? [],
    review: item.review,
  };
}
