// The audit trail in Cosmos DB: append and read, nothing else (section 6.2 rule 1: events leave
// only through expiry by `ttl`). Each tenant's partition holds its events, one head document
// (last sequence and hash, never expires) that serialises appends through its ETag, and the
// tenant's pseudonym secret.
import type { Container, OperationInput, SqlParameter } from '@azure/cosmos';
import type { AuditEvent, AuditEventKind } from '@groundcheck/contract';
import { cosmosOutcome } from './cosmos-status.js';

/** The last appended event of a tenant, as the head document records it. */
export interface AuditHead {
  sequence: number;
  hash: string;
  occurred_at: string;
  /** The head document's ETag: an append succeeds only if nobody moved the head since. */
  etag: string;
}

export interface AuditEventFilter {
  afterSequence?: number;
  kinds?: AuditEventKind[];
  actorId?: string;
  validationId?: string;
  /** ISO instants, inclusive. */
  from?: string;
  to?: string;
}

interface EventItem {
  id: string;
  customer_id: string;
  record: 'audit_event';
  ttl: number;
  event: AuditEvent;
}

interface HeadItem {
  id: typeof headId;
  customer_id: string;
  record: 'audit_head';
  sequence: number;
  hash: string;
  occurred_at: string;
}

/** Marks that a validation's event of a kind is in the trail, under an id derived from both: a point read answers "already appended?". */
interface EventKeyItem {
  id: string;
  customer_id: string;
  record: 'audit_event_key';
  ttl: number;
  event_id: string;
}

interface PseudonymSecretItem {
  id: typeof pseudonymSecretId;
  customer_id: string;
  record: 'pseudonym_secret';
  secret: string;
}

const headId = 'audit_head';
const pseudonymSecretId = 'pseudonym_secret';
/** A transactional batch holds at most 100 operations; one moves the head, and each event takes two (itself and its key). */
export const maxEventsPerAppend = 49;

const eventKeyId = (validationId: string, kind: AuditEventKind) => `key:${validationId}:${kind}`;

export class AuditStore {
  constructor(private readonly container: Container) {}

  async readHead(customerId: string): Promise<AuditHead | null> {
    const { resource, etag } = await this.container.item(headId, customerId).read<HeadItem>();
    if (!resource) return null;
    return { sequence: resource.sequence, hash: resource.hash, occurred_at: resource.occurred_at, etag };
  }

  /**
   * Writes `events` (already chained onto `expected`) and moves the head to the last of them, in
   * one transactional batch. Returns false, writing nothing, when another writer moved the head
   * first (412 on the ETag, or 409 when both created the first head).
   */
  async append(customerId: string, expected: AuditHead | null, events: AuditEvent[], ttlSeconds: number): Promise<boolean> {
    const last = events.at(-1);
    if (!last || events.length > maxEventsPerAppend)
      throw new Error(`an append takes 1 to ${maxEventsPerAppend} events, got ${events.length}`);
    const head: HeadItem = {
      id: headId,
      customer_id: customerId,
      record: 'audit_head',
      sequence: last.sequence,
      hash: last.hash,
      occurred_at: last.occurred_at,
    };
    const moveHead: OperationInput = expected
      ? { operationType: 'Replace', id: headId, partitionKey: customerId, ifMatch: expected.etag, resourceBody: { ...head } }
      : { operationType: 'Create', partitionKey: customerId, resourceBody: { ...head } };
    const createEvents: OperationInput[] = events.flatMap((event) => {
      const item: EventItem = { id: event.event_id, customer_id: customerId, record: 'audit_event', ttl: ttlSeconds, event };
      const operations: OperationInput[] = [{ operationType: 'Create', partitionKey: customerId, resourceBody: { ...item } }];
      if (event.validation_id) {
        const key: EventKeyItem = {
          id: eventKeyId(event.validation_id, event.kind),
          customer_id: customerId,
          record: 'audit_event_key',
          ttl: ttlSeconds,
          event_id: event.event_id,
        };
        // A second event of the kind for the validation fails the batch: each happens once (the review states never repeat).
        operations.push({ operationType: 'Create', partitionKey: customerId, resourceBody: { ...key } });
      }
      return operations;
    });
    const response = await this.container.items.batch([moveHead, ...createEvents], customerId);
    const first = response.result?.[0]?.statusCode;
    if (cosmosOutcome(first) === 'precondition_failed' || cosmosOutcome(first) === 'conflict') return false;
    if (!response.result?.every((r) => r.statusCode < 300)) throw new Error(`audit append batch failed with ${first}`);
    return true;
  }

  /** Whether the trail holds the validation's event of this kind, by a point read of its key (events appended since keys exist). */
  async hasEventKey(customerId: string, validationId: string, kind: AuditEventKind): Promise<boolean> {
    try {
      const { resource } = await this.container.item(eventKeyId(validationId, kind), customerId).read<EventKeyItem>();
      return resource !== undefined;
    } catch (error) {
      if (cosmosOutcome(error) === 'not_found') return false;
      throw error;
    }
  }

  /** Pages of a tenant's events in sequence order, read with continuation tokens. */
  async *events(customerId: string, filter: AuditEventFilter, pageSize: number): AsyncGenerator<AuditEvent[]> {
    const conditions = ['c.customer_id = @customer', 'c.record = @record'];
    const parameters: SqlParameter[] = [
      { name: '@customer', value: customerId },
      { name: '@record', value: 'audit_event' },
    ];
    const where = (condition: string, name: string, value: SqlParameter['value'] | undefined) => {
      if (value === undefined) return;
      conditions.push(condition);
      parameters.push({ name, value });
    };
    where('c.event.sequence > @after', '@after', filter.afterSequence);
    where('ARRAY_CONTAINS(@kinds, c.event.kind)', '@kinds', filter.kinds);
    where('c.event.actor.id = @actor', '@actor', filter.actorId);
    where('c.event.validation_id = @validation', '@validation', filter.validationId);
    // occurred_at never decreases with sequence and is always toISOString(), so string order is time order.
    where('c.event.occurred_at >= @from', '@from', filter.from);
    where('c.event.occurred_at <= @to', '@to', filter.to);
    const query = `SELECT * FROM c WHERE ${conditions.join(' AND ')} ORDER BY c.event.sequence ASC`;
    const pages = this.container.items.query<EventItem>({ query, parameters }, { partitionKey: customerId, maxItemCount: pageSize });
    while (pages.hasMoreResults()) {
      const { resources } = await pages.fetchNext();
      if (resources.length > 0) yield resources.map((item) => item.event);
    }
  }

  async readPseudonymSecret(customerId: string): Promise<Buffer | null> {
    const { resource } = await this.container.item(pseudonymSecretId, customerId).read<PseudonymSecretItem>();
    return resource ? Buffer.from(resource.secret, 'base64') : null;
  }

  /** Stores the tenant's secret once; when another process stored one first, returns that one. */
  async createPseudonymSecret(customerId: string, secret: Buffer): Promise<Buffer> {
    const item: PseudonymSecretItem = {
      id: pseudonymSecretId,
      customer_id: customerId,
      record: 'pseudonym_secret',
      secret: secret.toString('base64'),
    };
    try {
      await this.container.items.create(item);
      return secret;
    } catch (error) {
      if (cosmosOutcome(error) !== 'conflict') throw error;
      const existing = await this.readPseudonymSecret(customerId);
      if (!existing) throw error;
      return existing;
    }
  }
}
