// Records a completed validation (decision row 3, sections 3 and 6.2): the history record, the usage
// counters and the day's rollup in one transactional batch, then the audit events `validation_created`
// and, when the tenant's workflow asks for review, `review_required`. The record carries those events
// in its outbox until they are appended (audit-outbox.ts), so a failure in between leaves work that
// recovery completes: either everything exists in the end, or nothing does. A validation with an
// Idempotency-Key is recorded under the key's bound id, with the request's answer in the same batch.

import type {
  Actor,
  Claim,
  ConfidenceLevel,
  Finding,
  Mode,
  RequestSummary,
  ReviewStatus,
  Severity,
  SourceUsed,
  ValidationRecord,
} from '@groundcheck/contract';
import { daysToSeconds } from '../../cosmos/containers.js';
import type { HistoryItem, HistoryStore, KeyedAnswer } from '../../cosmos/history-store.js';
import type { Logger } from '../../logger.js';
import { instruments } from '../../telemetry/instruments.js';
import type { Tenant } from '../../tenants/tenant.js';
import { validationRollup } from '../analytics/daily-rollup.js';
import { validationUsage } from '../analytics/usage-counters.js';
import { type AuditEntry, type AuditTrail, systemActor } from '../audit/audit-trail.js';
import { publicRecord } from '../history/public-record.js';
import type { WebhookDelivery } from '../webhooks/webhook-delivery.js';
import { RecordOutbox } from './record-outbox.js';
import { recordedDetail } from './recorded-detail.js';

/** What the validation service knows once the engine has answered. */
export interface CompletedValidation {
  validationId: string;
  mode: Mode;
  createdAt: Date;
  question: string;
  user: Actor;
  /** The checked or generated answer: kept whole within the bounds of recorded-detail.ts, and as an excerpt. */
  output: string;
  /** The answer's claims with their evidence, as the validation answered them. */
  claims: Claim[];
  severity: Severity;
  confidenceLevel: ConfidenceLevel;
  issues: string[];
  findings: Finding[];
  /** One minus the answer's lowest claim score (engine/risk.ts): what a tenant's operating point is fitted on. */
  risk: number;
  sourceConflictCount: number;
  sourceGroups: string[];
  sources: SourceUsed[];
  requestSummary: RequestSummary;
  /** The id of the request's Idempotency-Key, when it had one. */
  keyId: string | null;
}

const outputExcerptChars = 500;

export class ValidationRecorder {
  /** Shared with the review workflow, which writes its audit events through the same records. */
  readonly outbox: RecordOutbox;

  constructor(
    private readonly history: HistoryStore,
    audit: AuditTrail,
    webhooks: WebhookDelivery,
    private readonly historyTtlDays: number,
  ) {
    this.outbox = new RecordOutbox(history, audit, webhooks);
  }

  /** Whether the tenant's workflow puts this validation in `pending_review` (section 3), and so its review state. */
  static reviewOf(tenant: Tenant, issueCount: number): ReviewStatus {
    const policy = tenant.workflow.reviewRequired;
    const required = policy === 'always' || (policy === 'when_issues' && issueCount > 0);
    return { required, state: required ? 'pending_review' : 'not_required' };
  }

  /**
   * Records the validation, and with `answer` the keyed request's answer in the same batch. Null,
   * having written nothing, when the record exists: an earlier try of the keyed request wrote it.
   */
  async record(
    tenant: Tenant,
    validation: CompletedValidation,
    log: Logger,
    answer: KeyedAnswer | null = null,
  ): Promise<ValidationRecord | null> {
    const item = this.historyItem(tenant, validation);
    const written = await this.history.create(
      item,
      [validationUsage(item, this.historyTtlDays), validationRollup(item, this.historyTtlDays)],
      answer,
    );
    if (!written) return null;
    try {
      // A new record's events cannot be in the trail yet.
      await this.outbox.complete(tenant, { item, etag: written.etag }, new Set(item.outbox.map((entry) => (entry as AuditEntry).kind)));
    } catch (error) {
      // The record and its outbox are stored: recovery appends what is missing.
      log.error(
        { err: error, validation_id: item.validation_id },
        'audit events of a validation not yet written; recovery will complete them',
      );
    }
    instruments().validations.add(1, {
      'groundcheck.mode': item.mode,
      'groundcheck.confidence_level': item.confidence_level,
      'groundcheck.outcome': item.issue_count > 0 ? 'issues' : 'no_issues',
    });
    return publicRecord(item);
  }

  /** Completes the outboxes of records (validations and reviews) that last changed before `before`. Returns how many. */
  recover(tenant: Tenant, before: Date): Promise<number> {
    return this.outbox.recover(tenant, before);
  }

  private historyItem(tenant: Tenant, validation: CompletedValidation): HistoryItem {
    const review = ValidationRecorder.reviewOf(tenant, validation.issues.length);
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
    if (review.required)
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
      risk: validation.risk,
      issues: validation.issues,
      findings: validation.findings,
      source_conflict_count: validation.sourceConflictCount,
      source_groups: validation.sourceGroups,
      output_excerpt: validation.output.slice(0, outputExcerptChars),
      ...recordedDetail(validation.output, validation.claims, validation.sources),
      user_corrections: [],
      review: { ...review, history: [] },
      outbox,
      outbox_pending: true,
      outbox_at: validation.createdAt.toISOString(),
      webhook_pending: true,
      idempotency_key_id: validation.keyId,
    };
  }
}
