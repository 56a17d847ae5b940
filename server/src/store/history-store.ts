// Validation history (container `history`, partitioned by tenant) with the documents that count it:
// the tenant's usage counters and one rollup per day. They share the record's partition, so a record
// and every count it changes are written in one transactional batch. The usage counters lead every
// such batch, guarded by the ETag they were read with, and everything else the batch writes was
// read after them: a batch that finds them changed writes nothing, and no other batch can have
// changed what it read (every writer of counts or records' review states moves the counters). The
// guard is the batch's first operation, so even a store that applied a failed batch's operations up
// to the failing one (the embedded emulator does) writes nothing.
// A record carries an outbox: the audit entries still to append. It is cleared once they are in the
// audit trail; a record whose outbox is still pending is completed by recovery.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Container, ItemDefinition, JSONObject, OperationInput, SqlParameter } from '@azure/cosmos';
import type { components } from '../generated/openapi.js';
import { historyFilterPaths } from './containers.js';
import { cosmosOutcome } from './cosmos-status.js';

type Schemas = components['schemas'];
type ValidationRecord = Schemas['ValidationRecord'];

export interface HistoryItem extends ValidationRecord {
  id: string;
  customer_id: string;
  record: 'validation';
  /** Seconds until Cosmos DB expires the item (HISTORY_TTL_DAYS). */
  ttl: number;
  /** Audit entries (facts only, never content) not yet appended; empty once they are. */
  outbox: unknown[];
  outbox_pending: boolean;
  /** When the outbox last changed (ISO): recovery leaves younger outboxes to the request writing them. */
  outbox_at: string;
}

/** A stored record with the ETag it was read or written with. */
export interface StoredRecord {
  item: HistoryItem;
  etag: string;
}

/** A document of counts in the tenant's partition, changed in the batch that writes a record. */
export interface TallyChange<T extends object> {
  id: string;
  record: 'usage_counters' | 'daily_rollup';
  // Methods, not function properties: a change of any document shape is a TallyChange<object>.
  /** What the document holds before anything was counted. */
  empty(): T;
  change(current: T): T;
  /** Seconds until Cosmos DB expires the document, counted from this write; none keeps it. */
  ttl?: number;
}

/** The record to write, a new one or a new version, and the counts it changes; the first tally is the leading document. */
export interface Commit {
  write: { create: HistoryItem } | { replace: HistoryItem };
  tallies: readonly TallyChange<object>[];
}

export interface HistoryFilter {
  /** Only records not yet expired at this instant (ISO): expiry by ttl is not immediate. */
  now: string;
  userId?: string;
  mode?: Schemas['Mode'];
  confidenceLevel?: Schemas['ConfidenceLevel'];
  reviewState?: Schemas['ReviewState'];
  /** ISO instants, inclusive. */
  from?: string;
  to?: string;
  /** Keyset paging: only records after this one in newest-first order. */
  after?: { createdAt: string; id: string };
  /** For callers who see less than the whole tenant: their own records and those whose groups they may all use. */
  visibleTo?: { principalId: string; usableGroups: string[] };
}

const createAttempts = 30;

export class HistoryStore {
  constructor(private readonly container: Container) {}

  /**
   * Reads the leading document (`leadId`), then lets `decide` read the record and say what to write,
   * then writes it all in one batch led by that document's ETag. Returns the record's new ETag, or
   * null, having written nothing, when another writer moved the leading document in between: the
   * caller decides again. `decide` may throw to write nothing (a refused review, say).
   */
  async commit(customerId: string, leadId: string, decide: () => Promise<Commit>): Promise<{ etag: string } | null> {
    const lead = await this.container.item(leadId, customerId).read<Record<string, unknown>>();
    const { write, tallies } = await decide();
    const [first, ...others] = tallies;
    if (first?.id !== leadId) throw new Error(`a history batch is led by ${leadId}`);
    const current = await Promise.all(others.map((tally) => this.container.item(tally.id, customerId).read<Record<string, unknown>>()));
    const operations: OperationInput[] = [
      lead.resource
        ? {
            operationType: 'Replace',
            id: leadId,
            partitionKey: customerId,
            ifMatch: lead.etag,
            resourceBody: tallied(customerId, first, lead.resource),
          }
        : { operationType: 'Create', partitionKey: customerId, resourceBody: tallied(customerId, first, undefined) },
      ...others.map(
        (tally, i): OperationInput => ({
          operationType: 'Upsert',
          partitionKey: customerId,
          resourceBody: tallied(customerId, tally, current[i]!.resource),
        }),
      ),
      'create' in write
        ? { operationType: 'Create', partitionKey: customerId, resourceBody: { ...write.create } as unknown as JSONObject }
        : {
            operationType: 'Replace',
            id: write.replace.id,
            partitionKey: customerId,
            resourceBody: { ...write.replace } as unknown as JSONObject,
          },
    ];
    const results = (await this.container.items.batch(operations, customerId)).result ?? [];
    const written = results.at(-1);
    if (results.length === operations.length && results.every((r) => r.statusCode < 300) && written?.eTag) return { etag: written.eTag };
    // Lost the race for the leading document: 412 when it changed, 409 when another writer created it first.
    if (['precondition_failed', 'conflict'].includes(cosmosOutcome(results[0]?.statusCode) ?? '')) return null;
    throw new Error(`history batch failed with ${results.map((r) => r.statusCode).join('/')}`);
  }

  /** Creates the record with its counts, deciding again while other writers win the race. */
  async create(item: HistoryItem, tallies: readonly TallyChange<object>[]): Promise<{ etag: string }> {
    for (let attempt = 0; attempt < createAttempts; attempt += 1) {
      const written = await this.commit(item.customer_id, tallies[0]!.id, async () => ({ write: { create: item }, tallies }));
      if (written) return written;
      // Another write moved the counters first: back off with full jitter so that contenders spread out.
      await sleep(Math.random() * Math.min(200, 2 ** attempt));
    }
    throw new Error(`history write for ${item.customer_id} lost ${createAttempts} races for its counts`);
  }

  async read(customerId: string, validationId: string): Promise<StoredRecord | null> {
    try {
      const { resource, etag } = await this.container.item(validationId, customerId).read<HistoryItem>();
      return resource?.record === 'validation' ? { item: resource, etag } : null;
    } catch (error) {
      if (cosmosOutcome(error) === 'not_found') return null;
      throw error;
    }
  }

  async get(customerId: string, validationId: string): Promise<HistoryItem | null> {
    return (await this.read(customerId, validationId))?.item ?? null;
  }

  /** A tally document, or null when nothing was counted in it yet. */
  async tally<T extends object>(customerId: string, id: string): Promise<T | null> {
    const { resource } = await this.container.item(id, customerId).read<T & ItemDefinition>();
    return resource ?? null;
  }

  /** The tenant's daily rollups from `fromDate` to `toDate` (inclusive `YYYY-MM-DD`): one query in one partition. */
  async rollups<T extends object>(customerId: string, fromDate: string, toDate: string): Promise<(T & { date: string })[]> {
    const { resources } = await this.container.items
      .query<T & { date: string }>(
        {
          query: 'SELECT * FROM c WHERE c.customer_id = @cid AND c.record = @record AND c.date >= @from AND c.date <= @to',
          parameters: [
            { name: '@cid', value: customerId },
            { name: '@record', value: 'daily_rollup' },
            { name: '@from', value: fromDate },
            { name: '@to', value: toDate },
          ],
        },
        { partitionKey: customerId },
      )
      .fetchAll();
    return resources;
  }

  /**
   * Empties the outbox of the version that was completed. When the record changed since (a review
   * added an entry), it is left as it is: whoever changed it completes it, or recovery does.
   */
  async clearOutbox(customerId: string, validationId: string, etag: string): Promise<void> {
    try {
      await this.container.item(validationId, customerId).patch(
        [
          { op: 'set', path: '/outbox', value: [] },
          { op: 'set', path: '/outbox_pending', value: false },
        ],
        { accessCondition: { type: 'IfMatch', condition: etag } },
      );
    } catch (error) {
      if (cosmosOutcome(error) !== 'precondition_failed' && cosmosOutcome(error) !== 'not_found') throw error;
    }
  }

  /** Records whose outbox is still pending and last changed before `before` (ISO time). */
  async pendingOutboxes(customerId: string, before: string): Promise<StoredRecord[]> {
    const { resources } = await this.container.items
      .query<HistoryItem & { _etag: string }>(
        {
          query: 'SELECT * FROM c WHERE c.customer_id = @cid AND c.record = @record AND c.outbox_pending = true AND c.outbox_at < @before',
          parameters: [
            { name: '@cid', value: customerId },
            { name: '@record', value: 'validation' },
            { name: '@before', value: before },
          ],
        },
        { partitionKey: customerId },
      )
      .fetchAll();
    return resources.map((item) => ({ item, etag: item._etag }));
  }

  /**
   * Records newest first (created_at, then id), `limit` of them and whether more follow. The first
   * equality filter present leads the ORDER BY, so the composite index that starts with it serves
   * the query (store/containers.ts); the others filter what that index yields.
   */
  async page(customerId: string, filter: HistoryFilter, limit: number): Promise<{ items: HistoryItem[]; hasMore: boolean }> {
    const conditions = ['c.customer_id = @cid', 'c.record = @record', 'c.expires_at > @now'];
    const parameters: SqlParameter[] = [
      { name: '@cid', value: customerId },
      { name: '@record', value: 'validation' },
      { name: '@now', value: filter.now },
    ];
    const where = (condition: string, name: string, value: SqlParameter['value'] | undefined) => {
      if (value === undefined) return;
      conditions.push(condition);
      parameters.push({ name, value });
    };
    const equalities: Record<(typeof historyFilterPaths)[number], SqlParameter['value'] | undefined> = {
      '/user/id': filter.userId,
      '/review/state': filter.reviewState,
      '/confidence_level': filter.confidenceLevel,
      '/mode': filter.mode,
    };
    for (const [i, path] of historyFilterPaths.entries()) where(`${field(path)} = @eq${i}`, `@eq${i}`, equalities[path]);
    where('c.created_at >= @from', '@from', filter.from);
    where('c.created_at <= @to', '@to', filter.to);
    if (filter.after) {
      conditions.push('(c.created_at < @afterAt OR (c.created_at = @afterAt AND c.id < @afterId))');
      parameters.push({ name: '@afterAt', value: filter.after.createdAt }, { name: '@afterId', value: filter.after.id });
    }
    if (filter.visibleTo) {
      conditions.push(
        '(c.user.id = @principal OR NOT EXISTS(SELECT VALUE g FROM g IN c.source_groups WHERE NOT ARRAY_CONTAINS(@usable, g)))',
      );
      parameters.push(
        { name: '@principal', value: filter.visibleTo.principalId },
        { name: '@usable', value: filter.visibleTo.usableGroups },
      );
    }
    const leading = historyFilterPaths.find((path) => equalities[path] !== undefined);
    const order = [...(leading ? [`${field(leading)} ASC`] : []), 'c.created_at DESC', 'c.id DESC'].join(', ');
    const query = `SELECT * FROM c WHERE ${conditions.join(' AND ')} ORDER BY ${order}`;
    const pages = this.container.items.query<HistoryItem>({ query, parameters }, { partitionKey: customerId, maxItemCount: limit + 1 });
    const items: HistoryItem[] = [];
    while (items.length <= limit && pages.hasMoreResults()) items.push(...(await pages.fetchNext()).resources);
    return { items: items.slice(0, limit), hasMore: items.length > limit };
  }
}

/** The tally document after its change, from what it held (undefined when there was none). */
function tallied(customerId: string, tally: TallyChange<object>, stored: Record<string, unknown> | undefined): JSONObject {
  return {
    ...tally.change(stored ? countsOf(stored) : tally.empty()),
    id: tally.id,
    customer_id: customerId,
    record: tally.record,
    ...(tally.ttl === undefined ? {} : { ttl: tally.ttl }),
  } as JSONObject;
}

/** A tally document without its identity and Cosmos' own fields: what the change works on. */
function countsOf(document: Record<string, unknown>): object {
  const { id: _id, customer_id: _cid, record: _record, ttl: _ttl, _rid, _self, _etag, _attachments, _ts, ...counts } = document;
  return counts;
}

/** `/review/state` as the SQL path `c.review.state`. */
const field = (path: string) => `c${path.replaceAll('/', '.')}`;
