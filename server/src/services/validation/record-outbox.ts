// The outbox of history records: audit entries written into the record in the same batch as the
// change they describe (a validation, a review), then appended to the audit trail and cleared, and,
// for a new validation, its webhook notification. A process that dies, or an audit write that fails,
// in between leaves them in the record, and recovery (or a retry that takes over the request's
// Idempotency-Key) completes them later: either the change and its events exist in the end, or
// neither. The webhook goes to whoever clears the outbox, which only one completion can do, so a
// validation notifies at most once (decision S95).
import type { HistoryItem, HistoryStore, StoredRecord } from '../../cosmos/history-store.js';
import type { Logger } from '../../logger.js';
import type { Tenant } from '../../tenants/tenant.js';
import type { AuditEntry, AuditTrail } from '../audit/audit-trail.js';
import { findingsEvent } from '../webhooks/findings-event.js';
import type { WebhookDelivery } from '../webhooks/webhook-delivery.js';

export class RecordOutbox {
  /** Completions of one record run one after another in this process, so none appends what another is appending. */
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    private readonly history: HistoryStore,
    private readonly audit: AuditTrail,
    private readonly webhooks: WebhookDelivery,
  ) {}

  /**
   * Appends the record's pending entries that the trail does not hold yet, then clears the outbox of
   * that version and sends the webhook it was holding. `written` names the kinds the caller has just
   * put in the outbox: they cannot be in the trail yet, so they are appended without asking it (the
   * write path never reads the trail).
   */
  complete(tenant: Tenant, { item, etag }: StoredRecord, written: ReadonlySet<AuditEntry['kind']> = new Set()): Promise<void> {
    const key = `${tenant.customerId}/${item.validation_id}`;
    const run = (this.running.get(key) ?? Promise.resolve()).catch(() => undefined).then(() => this.append(tenant, item, etag, written));
    this.running.set(key, run);
    void run
      .catch(() => undefined)
      .then(() => {
        if (this.running.get(key) === run) this.running.delete(key);
      });
    return run;
  }

  /**
   * The answer a keyed write gave (a validation, a review), with its record's outbox completed as
   * recovery would complete it; null when no try of the key wrote anything. A retry that took over
   * the key of a try that died answers with it instead of acting again.
   */
  async resume(tenant: Tenant, keyId: string, log: Logger): Promise<unknown | null> {
    const answer = await this.history.keyedAnswer(tenant.customerId, keyId);
    if (!answer) return null;
    const stored = await this.history.read(tenant.customerId, answer.validationId);
    if (stored?.item.outbox_pending) {
      try {
        await this.complete(tenant, stored);
      } catch (error) {
        log.error({ err: error, validation_id: answer.validationId }, 'audit events not yet written; recovery will complete them');
      }
    }
    return answer.body;
  }

  /** Completes the outboxes that last changed before `before`. Returns how many. */
  async recover(tenant: Tenant, before: Date): Promise<number> {
    const pending = await this.history.pendingOutboxes(tenant.customerId, before.toISOString());
    for (const record of pending) await this.complete(tenant, record);
    return pending.length;
  }

  private async append(tenant: Tenant, item: HistoryItem, etag: string, written: ReadonlySet<AuditEntry['kind']>): Promise<void> {
    for (const entry of item.outbox as AuditEntry[]) {
      // Each kind happens once per validation (the review states never repeat), so the kind identifies the entry.
      if (!written.has(entry.kind) && (await this.audit.hasEvent(tenant.customerId, item.validation_id, entry.kind))) continue;
      await this.audit.append(tenant, entry);
    }
    const cleared = await this.history.clearOutbox(tenant.customerId, item.validation_id, etag);
    if (cleared && item.webhook_pending) this.webhooks.send(tenant, findingsEvent(tenant, item));
  }
}
