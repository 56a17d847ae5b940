// The audit trail (section 6.2): later issues append events here; POST /api/v1/audit reads them.
// Each event carries a per-tenant sequence without gaps and the SHA-256 of its canonical form
// chained to the previous event's hash, so a consumer can prove nothing was changed, removed or
// reordered.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Actor, AuditEvent, AuditEventKind, AuditEventPage, AuditQuery } from '@groundcheck/contract';
import { auditEventFacts, canonicalJson } from '@groundcheck/contract';
import type { AuditHead, AuditStore } from '../../cosmos/audit-store.js';
import { daysToSeconds } from '../../cosmos/containers.js';
import { type Clock, systemClock } from '../../lib/clock.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import { dayRange } from '../../lib/day-range.js';
import { sha256Hex } from '../../lib/hash.js';
import { newId } from '../../lib/ids.js';
import type { Tenant } from '../../tenants/tenant.js';
import type { Principal } from '../auth/principal.js';
import type { Caller } from '../call-context.js';

/** The facts an event of kind K records: the `data` of the contract's `AuditEvent` variant for K. */
export type AuditFacts<K extends AuditEventKind> = AuditEvent extends infer E
  ? E extends { kind: infer Kinds; data: infer Data }
    ? K extends Kinds
      ? Data
      : never
    : never
  : never;

/** Any kind's facts, each optional: what code that reads events of every kind may find in `data`. */
export type AnyAuditFacts = Partial<
  AuditFacts<'validation_created'> &
    AuditFacts<'review_required'> &
    AuditFacts<'edited'> &
    AuditFacts<'review_handed_off'> &
    AuditFacts<'operating_point_applied'>
>;

/** Whether events of this kind record the fact, when present (a review decision's note, say). */
export function kindRecords(kind: AuditEventKind, fact: string): boolean {
  const { required, optional }: { required: readonly string[]; optional: readonly string[] } = auditEventFacts[kind];
  return required.includes(fact) || optional.includes(fact);
}

/** What a caller appends; the trail adds id, sequence, time, hashes and expiry. */
export type AuditEntry = {
  [K in AuditEventKind]: { kind: K; actor: Actor; validationId: string | null; data: AuditFacts<K> };
}[AuditEventKind];

export type AuditTenant = Pick<Tenant, 'customerId' | 'features' | 'auditRetentionDays'>;

const genesisHash = '0'.repeat(64);
/** The version of the `AuditEvent` shape, reported by the system card. */
export const auditEventSchemaVersion = '1';
const defaultPageLimit = 25;
const appendAttempts = 30;

/** The actor of an event, from the authenticated caller (an API key shows as its public `key_` id). */
export function actorOf(principal: Principal): Actor {
  return { type: principal.type, id: principal.id, name: principal.name, role: principal.role };
}

/** The actor of events the workflow writes by itself, such as `review_required`. */
export const systemActor: Actor = { type: 'system', id: 'system', name: null, role: 'admin' };

export class AuditTrail {
  /** Appends of one tenant run one after another in this process; other processes are held off by the head's ETag. */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly store: AuditStore,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Appends an event, or does nothing (null) when the tenant does not have the audit_trail feature. */
  append(tenant: AuditTenant, entry: AuditEntry): Promise<AuditEvent | null> {
    if (!tenant.features.audit_trail) return Promise.resolve(null);
    return this.serialised(tenant.customerId, () => this.appendWithRetry(tenant, entry));
  }

  /**
   * Whether the tenant's trail already holds an event of this kind for the validation (recovery appends
   * once): a point read of the event's key, then, for events appended before keys were written, a query.
   */
  async hasEvent(customerId: string, validationId: string, kind: AuditEventKind): Promise<boolean> {
    if (await this.store.hasEventKey(customerId, validationId, kind)) return true;
    for await (const page of this.store.events(customerId, { validationId, kinds: [kind] }, 1)) if (page.length > 0) return true;
    return false;
  }

  async list(ctx: Caller, query: AuditQuery): Promise<AuditEventPage> {
    const { customerId } = ctx.tenant;
    const limit = query.limit ?? defaultPageLimit;
    const range = dayRange(query.date_from, query.date_to);
    const pages = this.store.events(
      customerId,
      {
        afterSequence: query.cursor === undefined ? undefined : sequenceOfCursor(query.cursor),
        kinds: query.kinds,
        actorId: query.actor_id,
        validationId: query.validation_id,
        from: range.from,
        to: range.to,
      },
      limit + 1,
    );
    const events: AuditEvent[] = [];
    for await (const page of pages) {
      events.push(...page);
      if (events.length > limit) break;
    }
    const data = events.slice(0, limit);
    const hasMore = events.length > limit;
    return { data, has_more: hasMore, next_cursor: hasMore ? cursorAfter(data.at(-1)!.sequence) : null };
  }

  private serialised<T>(customerId: string, task: () => Promise<T>): Promise<T> {
    const run = (this.queues.get(customerId) ?? Promise.resolve()).then(task);
    const settled = run.catch(() => undefined);
    this.queues.set(customerId, settled);
    void settled.then(() => {
      if (this.queues.get(customerId) === settled) this.queues.delete(customerId);
    });
    return run;
  }

  private async appendWithRetry(tenant: AuditTenant, entry: AuditEntry): Promise<AuditEvent> {
    for (let attempt = 0; attempt < appendAttempts; attempt += 1) {
      const head = await this.store.readHead(tenant.customerId);
      // Time never runs backwards along the sequence, even when clocks of several processes disagree.
      const occurredAt = new Date(Math.max(this.clock.now().getTime(), head ? Date.parse(head.occurred_at) : 0));
      const event = chainEvent(head, tenant, entry, occurredAt);
      if (await this.store.append(tenant.customerId, head, [event], daysToSeconds(tenant.auditRetentionDays))) return event;
      // Another process appended first: back off with full jitter so contenders spread out.
      await sleep(Math.random() * Math.min(100, 2 ** attempt));
    }
    throw new Error(`audit append for ${tenant.customerId} lost ${appendAttempts} races for the head document`);
  }
}

/** The event that follows `previous` (null for a tenant's first) in the tenant's chain. */
export function chainEvent(
  previous: Pick<AuditHead, 'sequence' | 'hash'> | null,
  tenant: AuditTenant,
  entry: AuditEntry,
  occurredAt: Date,
): AuditEvent {
  return sealEvent({
    event_id: newId('aud', occurredAt.getTime()),
    sequence: (previous?.sequence ?? 0) + 1,
    customer_id: tenant.customerId,
    kind: entry.kind,
    occurred_at: occurredAt.toISOString(),
    actor: { type: entry.actor.type, id: entry.actor.id, name: entry.actor.name ?? null, role: entry.actor.role },
    validation_id: entry.validationId,
    data: recordedFacts(entry),
    prev_hash: previous?.hash ?? genesisHash,
    expires_at: new Date(occurredAt.getTime() + daysToSeconds(tenant.auditRetentionDays) * 1000).toISOString(),
  } as Omit<AuditEvent, 'hash'>); // the entry pairs kind and facts (AuditEntry); TypeScript cannot follow that through recordedFacts
}

/** Adds the chain hash: SHA-256 of `prev_hash` followed by the canonical JSON of every field but `hash` and `expires_at`. */
function sealEvent(draft: Omit<AuditEvent, 'hash'>): AuditEvent {
  const { expires_at: _expiresAt, ...hashed } = draft;
  return { ...draft, hash: sha256Hex(draft.prev_hash + canonicalJson(hashed)) } as AuditEvent;
}

/**
 * The entry's facts reduced to what section 2.4 allows for its kind: a field that is not a fact of
 * the kind (content, credentials, anything else) is a programming error and is never stored.
 */
function recordedFacts(entry: AuditEntry): AnyAuditFacts {
  const data: AnyAuditFacts = entry.data;
  const unexpected = Object.keys(data).filter((key) => !kindRecords(entry.kind, key));
  const required: readonly string[] = auditEventFacts[entry.kind].required;
  const missing = required.filter((key) => data[key as keyof AnyAuditFacts] === undefined);
  if (unexpected.length > 0 || missing.length > 0) {
    throw new Error(`audit event ${entry.kind}: unexpected facts [${unexpected.join(', ')}], missing facts [${missing.join(', ')}]`);
  }
  // Nested objects are rebuilt field by field, so extra properties of the caller's objects stay out too.
  const facts: AnyAuditFacts = { ...data };
  if (data.request_summary) {
    const { question_chars, response_chars, source_group_count, url_count, inline_text_chars } = data.request_summary;
    facts.request_summary = { question_chars, response_chars, source_group_count, url_count, inline_text_chars };
  }
  if (data.sources) facts.sources = data.sources.map(({ reference, sha256 }) => ({ reference, sha256 }));
  if (data.corrections) facts.corrections = data.corrections.map(({ element, action, note }) => ({ element, action, note }));
  if (data.previous) facts.previous = { precision: data.previous.precision, recall: data.previous.recall };
  if (data.fitted) facts.fitted = { precision: data.fitted.precision, recall: data.fitted.recall };
  return facts;
}

// Keyset paging on sequence: a cursor names the last event of the page before.
const cursorAfter = (sequence: number) => encodeCursor('after', sequence);
const sequenceOfCursor = (cursor: string) => Number(decodeCursor(cursor, 'after', /^[1-9]\d{0,14}$/));
