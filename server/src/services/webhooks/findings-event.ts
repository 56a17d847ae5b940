// The `service.validation.findings` event of a recorded validation (section 6.1), built from its
// history record, so that the request and recovery send the same event. Its id is the validation's
// own ULID: a receiver can tell a repeat from a new event.
import type { ValidationFindingsEvent } from '@groundcheck/contract';
import type { HistoryItem } from '../../cosmos/history-store.js';
import type { Tenant } from '../../tenants/tenant.js';

export function findingsEvent(tenant: Pick<Tenant, 'customerId' | 'name'>, item: HistoryItem): ValidationFindingsEvent {
  return {
    event_id: `evt_${item.validation_id.slice('val_'.length)}`,
    event_type: 'service.validation.findings',
    timestamp: Math.floor(Date.parse(item.created_at) / 1000),
    customer_id: tenant.customerId,
    customer_name: tenant.name,
    validation_id: item.validation_id,
    mode: item.mode,
    question: item.question,
    severity: item.severity,
    confidence_level: item.confidence_level,
    issue_count: item.issue_count,
    issues: item.issues,
    findings: (item.findings ?? []).map(({ category, status, title, description, severity }) => ({
      category,
      status,
      title,
      description,
      severity,
    })),
    // Decision row 62: reviews come later; their corrections are read from history or the audit trail.
    user_corrections: [],
    source_conflict_count: item.source_conflict_count,
    output_excerpt: item.output_excerpt,
    user: { user_id: item.user.id, name: item.user.name ?? '', role: item.user.role },
  };
}
