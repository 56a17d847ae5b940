// Records a completed validation (decision row 3, sections 3 and 6.2): the history record and the
// usage counters in one transactional batch, then the audit events `validation_created` and, when
// the tenant's workflow asks for review, `review_required`. The record carries those events in its
// outbox until they are appended, so a process that dies, or an audit write that fails, in between
// leaves work that `recover` completes: either everything exists in the end, or nothing does.
import type { components } from '../../generated/openapi.js';
import type { Logger } from '../../logger.js';
import { daysToSeconds } from '../../store/containers.js';
import type { HistoryItem, HistoryStore, UsageCounters } from '../../store/history-store.js';
import type { Tenant } from '../../tenants/tenant.js';
import { type AuditEntry, type AuditTrail, systemActor } from '../audit/audit-trail.js';

type ValidationRecord = components['schemas']['ValidationRecord'];
type Actor = components['schemas']['Actor'];
type Mode = components['schemas']['Mode'];
type Severity = components['schemas']['Severity'];
type ConfidenceLevel = components['schemas']['ConfidenceLevel'];
type Finding = components['schemas']['Finding'];
type SourceUsed = components['schemas']['SourceUsed'];
type RequestSummary = components['schemas']['RequestSummary'];

/** What the validation service knows once the engine has answered. */
export interface CompletedValidation {
  validationId: string;
  mode: Mode;
  createdAt: Date;
  question: string;
  user: Actor;
  /** The checked or generated answer; only its first 500 characters are kept. */
  output: string;
  severity: Severity;
  confidenceLevel: ConfidenceLevel;
  issues: string[];
  findings: Finding[];
  sourceConflictCount: number;
  sourceGroups: string[];
  sources: SourceUsed[];
  requestSummary: RequestSummary;
}

const outputExcerptChars = 500;

export class ValidationRecorder {
  constructor(
    private readonly history: HistoryStore,
    private readonly audit: AuditTrail,
    private readonly historyTtlDays: number,
  ) {}

  /** Whether the tenant's workflow puts this validation in `pending_review` (section 3). */
  static reviewRequired(tenant: Tenant, issueCount: number): boolean {
    const policy = tenant.workflow.reviewRequired;
    return policy === 'always' || (policy === 'when_issues' && issueCount > 0);
  }

  async record(tenant: Tenant, validation: CompletedValidation, log: Logger): Promise<ValidationRecord> {
    const item = this.historyItem(tenant, validation);
    await this.history.create(item, (counters) => counted(counters, validation));
    try {
      await this.completeOutbox(tenant, item);
    } catch (error) {
      // The record and its outbox are stored: recovery appends what is missing.
      log.error(
        { err: error, validation_id: item.validation_id },
        'audit events of a validation not yet written; recovery will complete them',
      );
    }
    return publicRecord(item);
  }

  /** Completes the outboxes of records created before `before` (at start, and periodically). Returns how many. */
  async recover(tenant: Tenant, before: Date): Promise<number> {
    const pending = await this.history.pendingOutboxes(tenant.customerId, before.toISOString());
    for (const item of pending) await this.completeOutbox(tenant, item);
    return pending.length;
  }

  private async completeOutbox(tenant: Tenant, item: HistoryItem): Promise<void> {
    for (const entry of item.outbox as AuditEntry[]) {
      // Appended once: a retry after a failure part-way skips what is already in the trail.
      if (await this.audit.hasEvent(tenant.customerId, item.validation_id, entry.kind)) continue;
      await this.audit.append(tenant, entry);
    }
    await this.history.clearOutbox(tenant.customerId, item.validation_id);
  }

  private historyItem(tenant: Tenant, validation: CompletedValidation): HistoryItem {
    const reviewRequired = ValidationRecorder.reviewRequired(tenant, validation.issues.length);
    const ttl = daysToSeconds(this.historyTtlDays);
    const outbox: AuditEntry[] = [
      {
        kind: 'validation_created',
        actor: validation.user,
        validationId: validation.validationId,
        data: {
          mode: validation.mode,
          request_summary: validation.requestSummary,
          source_groups: validation.sourceGroups,
          sources: validation.sources.map(({ reference, sha256 }) => ({ reference, sha256 })),
          confidence_level: validation.confidenceLevel,
          issue_count: validation.issues.length,
        },
      },
    ];
    if (reviewRequired)
      outbox.push({
        kind: 'review_required',
        actor: systemActor,
        validationId: validation.validationId,
        data: { review_state: 'pending_review' },
      });
    return {
      id: validation.validationId,
      customer_id: tenant.customerId,
      record: 'validation',
      ttl,
      validation_id: validation.validationId,
      mode: validation.mode,
      created_at: validation.createdAt.toISOString(),
      expires_at: new Date(validation.createdAt.getTime() + ttl * 1000).toISOString(),
      question: validation.question,
      user: validation.user,
      severity: validation.severity,
      confidence_level: validation.confidenceLevel,
      issue_count: validation.issues.length,
      issues: validation.issues,
      findings: validation.findings,
      source_conflict_count: validation.sourceConflictCount,
      source_groups: validation.sourceGroups,
      output_excerpt: validation.output.slice(0, outputExcerptChars),
      review: { required: reviewRequired, state: reviewRequired ? 'pending_review' : 'not_required', history: [] },
      outbox,
      outbox_pending: true,
    };
  }
}

function counted(counters: UsageCounters, validation: CompletedValidation): UsageCounters {
  const { validations } = counters;
  const month = validation.createdAt.toISOString().slice(0, 7);
  return {
    ...counters,
    validations: {
      total: validations.total + 1,
      with_issues: validations.with_issues + (validation.issues.length > 0 ? 1 : 0),
      by_mode: { ...validations.by_mode, [validation.mode]: (validations.by_mode[validation.mode] ?? 0) + 1 },
      by_month: { ...validations.by_month, [month]: (validations.by_month[month] ?? 0) + 1 },
    },
  };
}

function publicRecord(item: HistoryItem): ValidationRecord {
  const { id: _id, customer_id: _customer, record: _record, ttl: _ttl, outbox: _outbox, outbox_pending: _pending, ...record } = item;
  return record;
}
