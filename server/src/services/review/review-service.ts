// POST /api/v1/history/{id}/review (section 3, decision rows 20-23): applies a review action along
// the state machine (review-transitions.ts). The record's new state, its review entry and the audit
// event are written together: the new version of the record carries the event in its outbox and is
// written, guarded by the ETag it was read with, in the batch that moves the month's usage and the
// day's rollup (cosmos/history-store.ts), with the answer when the request has an Idempotency-Key
// (decision S95). Of two reviewers acting at once, one batch wins; the other reads the record again,
// finds its state changed and gets 409. The outbox is then appended to the audit trail (or by recovery).
import { setTimeout as sleep } from 'node:timers/promises';
import type { Actor, ReviewAction, ReviewEntry, ReviewRequest, ReviewState, ValidationRecord } from '@groundcheck/contract';
import type { HistoryItem, HistoryStore } from '../../cosmos/history-store.js';
import type { SourceGroupStore } from '../../cosmos/source-group-store.js';
import { ConflictError, NotFoundError } from '../../errors.js';
import { reviewRollup } from '../analytics/daily-rollup.js';
import { reviewUsage } from '../analytics/usage-counters.js';
import { type AnyAuditFacts, type AuditEntry, actorOf, kindRecords } from '../audit/audit-trail.js';
import { type Caller, writtenByEarlierTry } from '../call-context.js';
import { publicRecord } from '../history/public-record.js';
import { canSee, visibilityOf } from '../history/visibility.js';
import type { RecordOutbox } from '../validation/record-outbox.js';
import { type ReviewTransition, reviewTransitions, transitionFor } from './review-transitions.js';

export interface ReviewServiceDependencies {
  history: HistoryStore;
  outbox: RecordOutbox;
  groups: SourceGroupStore;
  historyTtlDays: number;
  /** Told of every decision that closes a review (a fit of the tenant's operating point may be due, decision S113). */
  decided?: (tenant: Caller['tenant']) => void;
}

/** Attempts of one review while other reviews of the record win the race for it. */
const writeAttempts = 30;

/** The facts a review request may carry, whatever its action. */
type ReviewFact = 'note' | 'corrections' | 'external_reference';
type ReviewFacts = { [F in ReviewFact]?: Required<AnyAuditFacts>[F] };

export class ReviewService {
  constructor(private readonly deps: ReviewServiceDependencies) {}

  async review(ctx: Caller<{ id: string }>, request: ReviewRequest): Promise<ValidationRecord> {
    const { customerId } = ctx.tenant;
    // A retry that took over the key of a try that died after deciding: that decision, finished, is the answer.
    const resumed = await writtenByEarlierTry(ctx, () => this.deps.outbox.resume(ctx.tenant, ctx.keyed!.keyId, ctx.log));
    if (resumed !== null) return resumed as ValidationRecord;
    const visibility = await visibilityOf(ctx.principal, this.deps.groups);
    const at = ctx.clock.now();
    for (let attempt = 0; attempt < writeAttempts; attempt += 1) {
      const stored = await this.deps.history.read(customerId, ctx.path.id);
      // Expired (ttl removal is not immediate), unknown, another tenant's or not visible: all the same 404.
      if (!stored || stored.item.expires_at <= at.toISOString() || !canSee(visibility, stored.item)) {
        throw new NotFoundError('not_found', 'No validation with this id.');
      }
      const { item } = stored;
      const transition = transitionFor(item.review.state, request.action);
      if (!transition) throw refused(item.review.state, request.action);
      const next = reviewed(item, transition, factsOf(request), actorOf(ctx.principal), at);
      const move = { from: transition.from, to: transition.to, at, closes: transition.closes };
      const written = await this.deps.history.update(
        stored,
        next,
        [reviewUsage(item, move, this.deps.historyTtlDays), reviewRollup(item, move, this.deps.historyTtlDays)],
        ctx.keyed && { keyId: ctx.keyed.keyId, body: publicRecord(next) },
      );
      if (!written) {
        // Another review came first: back off with jitter, then read and decide again.
        await sleep(Math.random() * Math.min(100, 2 ** attempt));
        continue;
      }
      try {
        // The decision's event was just put in the outbox: it cannot be in the trail yet.
        const decided = (next.outbox.at(-1) as AuditEntry).kind;
        await this.deps.outbox.complete(ctx.tenant, { item: next, etag: written.etag }, new Set([decided]));
      } catch (error) {
        ctx.log.error(
          { err: error, validation_id: next.validation_id },
          'audit event of a review not yet written; recovery will complete it',
        );
      }
      ctx.log.info({ validation_id: next.validation_id, action: request.action, review_state: next.review.state }, 'validation reviewed');
      if (transition.closes) this.deps.decided?.(ctx.tenant);
      return publicRecord(next);
    }
    throw new Error(`review of ${ctx.path.id} lost ${writeAttempts} races for its batch`);
  }
}

/** The facts the request carries; the contract's shape for its action has made sure of those the action needs. */
function factsOf(request: ReviewRequest): ReviewFacts {
  const sent = request as ReviewFacts;
  return { note: sent.note, corrections: sent.corrections, external_reference: sent.external_reference };
}

/** The record after the transition: new state, its entry in the history, corrections, and the audit event in the outbox. */
function reviewed(item: HistoryItem, transition: ReviewTransition, facts: ReviewFacts, actor: Actor, at: Date): HistoryItem {
  const externalReference = facts.external_reference ?? handoffReference(item);
  const entry: ReviewEntry = {
    action: transition.action,
    from_state: transition.from,
    to_state: transition.to,
    actor,
    at: at.toISOString(),
    note: facts.note ?? null,
    external_reference: externalReference,
    corrections: facts.corrections ?? [],
  };
  const recorded = { ...facts, external_reference: externalReference ?? undefined };
  const data = Object.fromEntries(
    (Object.keys(recorded) as ReviewFact[])
      .filter((fact) => recorded[fact] !== undefined && kindRecords(transition.auditEvent, fact))
      .map((fact) => [fact, recorded[fact]]),
  );
  const event = { kind: transition.auditEvent, actor, validationId: item.validation_id, data } as AuditEntry;
  return {
    ...item,
    review: { ...item.review, state: transition.to, history: [...item.review.history, entry] },
    user_corrections: transition.action === 'edit' ? (facts.corrections ?? []) : (item.user_corrections ?? []),
    outbox: [...item.outbox, event],
    outbox_pending: true,
    outbox_at: at.toISOString(),
  };
}

function handoffReference(item: HistoryItem): string | null {
  return item.review.history.findLast((entry) => entry.action === 'handoff')?.external_reference ?? null;
}

function refused(state: ReviewState, action: ReviewAction): ConflictError {
  const from = reviewTransitions.filter((t) => t.action === action).map((t) => t.from);
  return new ConflictError(
    'invalid_review_transition',
    `The validation is ${state}; ${action} applies only to a validation that is ${from.join(' or ')}.`,
  );
}
