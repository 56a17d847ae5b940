// Validation history (container `history`, partitioned by tenant) with the documents that count it:
// the tenant's usage for each month and one rollup per day. They share the record's partition, so a
// record and every count it changes are written in one transactional batch: the counts as Cosmos DB
// `incr` patches, which need no ETag, so concurrent writers of one tenant neither wait for each
// other nor lose a count. A new record cannot conflict with anything; a new version of a record (a
// review) is guarded by the ETag it was read with, and a batch that finds it changed writes nothing.
// A record carries an outbox: the audit entries still to append. It is cleared once they are in the
// audit trail; a record whose outbox is still pending is completed by recovery.
import type { Container, ItemDefinition, JSONObject, OperationInput, PatchOperation, SqlParameter } from '@azure/cosmos';
import type { ConfidenceLevel, Mode, ReviewState, ValidationRecord } from '@groundcheck/contract';
import { historyFilterPaths } from './containers.js';
import { type CosmosOutcome, cosmosOutcome } from './cosmos-status.js';

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
  /** The validation's webhook notification is still to be sent, by whoever clears the outbox. */
  webhook_pending?: boolean;
  /** The id (a hash) of the Idempotency-Key the validation was made under, when it had one; never the key. */
  idempotency_key_id?: string | null;
  /** One minus the answer's lowest claim score, for fitting the tenant's operating point (absent on older records). */
  risk?: number;
}

/** What engine agreement reads of a decided validation. */
export interface DecidedReview {
  created_at: string;
  state: ReviewState;
  risk?: number;
  findings?: HistoryItem['findings'];
  user_corrections?: HistoryItem['user_corrections'];
}

/** A stored record with the ETag it was read or written with. */
export interface StoredRecord {
  item: HistoryItem;
  etag: string;
}

/** A document of counts in the tenant's partition, added to in the batch that writes a record. */
export interface Tally {
  id: string;
  record: 'usage_month' | 'daily_rollup';
  /** What the document holds when it is created: every object an increment's path runs through. */
  empty(): object;
  /** Seconds until Cosmos DB expires the document after its last write. */
  ttl: number;
  /** `incr` patches. */
  increments: PatchOperation[];
  /** A number the document keeps the largest of (Cosmos DB has no `max` patch): raised after the batch. */
  raise?: { path: string; value: number };
}

export interface HistoryFilter {
  /** Only records not yet expired at this instant (ISO): expiry by ttl is not immediate. */
  now: string;
  userId?: string;
  mode?: Mode;
  confidenceLevel?: ConfidenceLevel;
  reviewState?: ReviewState;
  /** Only this validation's record. */
  validationId?: string;
  /** ISO instants, inclusive. */
  from?: string;
  to?: string;
  /** Keyset paging: only records after this one in newest-first order. */
  after?: { createdAt: string; id: string };
  /** For callers who see less than the whole tenant: their own records and those whose groups they may all use. */
  visibleTo?: { principalId: string; usableGroups: string[] };
}

/**
 * The answer a write gives to a request with an Idempotency-Key (decision S95), kept in the record's
 * partition and written in the record's batch: a retry that takes the key over after a crash finds
 * the write and its answer together, or neither.
 */
export interface KeyedAnswer {
  /** The key's id (a hash of the key). */
  keyId: string;
  body: unknown;
}

interface KeyedAnswerItem {
  id: string;
  customer_id: string;
  record: 'keyed_answer';
  validation_id: string;
  answer: unknown;
  ttl: number;
}

/** A keyed answer is needed while its key can be retried. */
const keyedAnswerTtlSeconds = 24 * 60 * 60;
const keyedAnswerId = (keyId: string) => `answer_${keyId}`;

/** Cosmos DB takes at most this many operations in one patch. */
const patchLimit = 10;
/** Tally documents known to exist, by partition and id; forgotten when a batch finds one missing. */
const knownLimit = 10_000;

/** The record's new ETag, when every operation of its batch succeeded. */
function recordEtag(
  results: readonly { statusCode: number; eTag?: string }[],
  operationCount: number,
  recordAt: 'first' | 'last',
): string | undefined {
  const record = recordAt === 'first' ? results[0] : results.at(-1);
  if (results.length !== operationCount || !results.every((r) => r.statusCode < 300)) return undefined;
  return record?.eTag;
}

export class HistoryStore {
  private readonly known = new Set<string>();

  constructor(private readonly container: Container) {}

  /**
   * Writes a new record with its counts (and the answer of its keyed request). Null, having written
   * nothing, when a record with its id exists: an earlier try of the same keyed request wrote it.
   */
  async create(item: HistoryItem, tallies: readonly Tally[], answer: KeyedAnswer | null = null): Promise<{ etag: string } | null> {
    const write: OperationInput = {
      operationType: 'Create',
      partitionKey: item.customer_id,
      resourceBody: { ...item } as unknown as JSONObject,
    };
    return this.batch(item, tallies, write, 'last', answer);
  }

  /**
   * Replaces a record by a new version, with its counts (and the answer of its keyed request), if it
   * is still as it was read (`stored`). Returns the new ETag, or null, having written nothing, when
   * another writer changed it first.
   */
  async update(
    stored: StoredRecord,
    next: HistoryItem,
    tallies: readonly Tally[],
    answer: KeyedAnswer | null = null,
  ): Promise<{ etag: string } | null> {
    const write: OperationInput = {
      operationType: 'Replace',
      id: next.id,
      partitionKey: next.customer_id,
      ifMatch: stored.etag,
      resourceBody: { ...next } as unknown as JSONObject,
    };
    return this.batch(next, tallies, write, 'first', answer);
  }

  /** The answer kept for a keyed request, or null when no write of it was made. */
  async keyedAnswer(customerId: string, keyId: string): Promise<{ validationId: string; body: unknown } | null> {
    try {
      const { resource } = await this.container.item(keyedAnswerId(keyId), customerId).read<KeyedAnswerItem>();
      return resource?.record === 'keyed_answer' ? { validationId: resource.validation_id, body: resource.answer } : null;
    } catch (error) {
      if (cosmosOutcome(error) === 'not_found') return null;
      throw error;
    }
  }

  /**
   * One transactional batch: the record's write with the tallies' increments and the keyed answer
   * (the record first when it is guarded by an ETag, last when it is created, so that it is the
   * operation that fails). Null when the guard failed or the record to create exists.
   */
  private async batch(
    item: HistoryItem,
    tallies: readonly Tally[],
    write: OperationInput,
    recordAt: 'first' | 'last',
    answer: KeyedAnswer | null,
  ): Promise<{ etag: string } | null> {
    const customerId = item.customer_id;
    const increments = tallies.flatMap((tally) =>
      chunks(tally.increments, patchLimit).map(
        (operations): OperationInput => ({ operationType: 'Patch', id: tally.id, partitionKey: customerId, resourceBody: { operations } }),
      ),
    );
    if (answer) increments.push(keptAnswer(item, answer));
    const operations = recordAt === 'first' ? [write, ...increments] : [...increments, write];
    for (let attempt = 0; attempt < 2; attempt += 1) {
      await this.ensure(customerId, tallies);
      const results = (await this.container.items.batch(operations, customerId)).result ?? [];
      const etag = recordEtag(results, operations.length, recordAt);
      if (etag) {
        await Promise.all(tallies.map((tally) => this.raise(customerId, tally)));
        return { etag };
      }
      const failed = results.findIndex((r) => r.statusCode >= 300 && r.statusCode !== 424);
      const outcome = cosmosOutcome(results[failed]?.statusCode);
      if (refusedRecord(outcome, failed, operations.length, recordAt)) return null;
      // A tally document gone since it was known (the tenant's data was purged): create it again, once.
      if (outcome !== 'not_found' || attempt > 0) break;
      for (const tally of tallies) this.known.delete(knownKey(customerId, tally.id));
    }
    throw new Error(`history batch for ${customerId} (${item.validation_id}) failed`);
  }

  /** Creates the tally documents not yet known to exist, as empty documents; one that already exists is left as it is. */
  private async ensure(customerId: string, tallies: readonly Tally[]): Promise<void> {
    await Promise.all(
      tallies
        .filter((tally) => !this.known.has(knownKey(customerId, tally.id)))
        .map(async (tally) => {
          try {
            await this.container.items.create({
              ...tally.empty(),
              id: tally.id,
              customer_id: customerId,
              record: tally.record,
              ttl: tally.ttl,
            });
          } catch (error) {
            if (cosmosOutcome(error) !== 'conflict') throw error;
          }
          if (this.known.size >= knownLimit) this.known.clear();
          this.known.add(knownKey(customerId, tally.id));
        }),
    );
  }

  /** Sets the tally's `raise` path to its value when that is larger than what the document holds. */
  private async raise(customerId: string, tally: Tally): Promise<void> {
    if (!tally.raise || !Number.isFinite(tally.raise.value)) return;
    const { path, value } = tally.raise;
    try {
      await this.container.item(tally.id, customerId).patch({
        condition: `from c where c${path
          .split('/')
          .map((key) => `.${key}`)
          .join('')} < ${value}`,
        operations: [{ op: 'set', path: `/${path}`, value }],
      });
    } catch (error) {
      // Not raised: the document already holds as much.
      if (cosmosOutcome(error) !== 'precondition_failed') throw error;
    }
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
   * The tenant's validations made from `fromIso` (inclusive) to `toIso` (exclusive) whose review is in one of
   * `states`, not expired at `now`, newest first, at most `limit`: only what engine agreement reads of them.
   */
  async decidedReviews(
    customerId: string,
    range: { fromIso: string; toIso: string; now: string },
    states: readonly ReviewState[],
    limit: number,
  ): Promise<DecidedReview[]> {
    const pages = this.container.items.query<DecidedReview>(
      {
        query:
          'SELECT c.created_at, c.review.state AS state, c.risk, c.findings, c.user_corrections FROM c WHERE c.customer_id = @cid AND c.record = @record ' +
          'AND c.expires_at > @now AND c.created_at >= @from AND c.created_at < @to AND ARRAY_CONTAINS(@states, c.review.state) ORDER BY c.created_at DESC',
        parameters: [
          { name: '@cid', value: customerId },
          { name: '@record', value: 'validation' },
          { name: '@now', value: range.now },
          { name: '@from', value: range.fromIso },
          { name: '@to', value: range.toIso },
          { name: '@states', value: [...states] },
        ],
      },
      { partitionKey: customerId, maxItemCount: Math.min(limit, 1000) },
    );
    const found: DecidedReview[] = [];
    while (found.length < limit && pages.hasMoreResults()) found.push(...(await pages.fetchNext()).resources);
    return found.slice(0, limit);
  }

  /** How many of the tenant's validations not expired at `now` have a review in one of `states` and a recorded risk. */
  async countDecided(customerId: string, now: string, states: readonly ReviewState[]): Promise<number> {
    const { resources } = await this.container.items
      .query<number>(
        {
          query:
            'SELECT VALUE COUNT(1) FROM c WHERE c.customer_id = @cid AND c.record = @record AND c.expires_at > @now ' +
            'AND ARRAY_CONTAINS(@states, c.review.state) AND IS_NUMBER(c.risk)',
          parameters: [
            { name: '@cid', value: customerId },
            { name: '@record', value: 'validation' },
            { name: '@now', value: now },
            { name: '@states', value: [...states] },
          ],
        },
        { partitionKey: customerId },
      )
      .fetchAll();
    return resources[0] ?? 0;
  }

  /**
   * Empties the outbox of the version that was completed, its pending webhook included; true when
   * this call did. When the record changed since (a review added an entry, another process cleared
   * it), it is left as it is: whoever changed it completes it, or recovery does.
   */
  async clearOutbox(customerId: string, validationId: string, etag: string): Promise<boolean> {
    try {
      await this.container.item(validationId, customerId).patch(
        [
          { op: 'set', path: '/outbox', value: [] },
          { op: 'set', path: '/outbox_pending', value: false },
          { op: 'set', path: '/webhook_pending', value: false },
        ],
        { accessCondition: { type: 'IfMatch', condition: etag } },
      );
      return true;
    } catch (error) {
      if (cosmosOutcome(error) !== 'precondition_failed' && cosmosOutcome(error) !== 'not_found') throw error;
      return false;
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
   * the query (cosmos/containers.ts); the others filter what that index yields.
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
    where('c.id = @validationId', '@validationId', filter.validationId);
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

const knownKey = (customerId: string, id: string) => JSON.stringify([customerId, id]);

/**
 * Whether the batch failed on the record's own write as a guarded writer expects: the version read
 * is gone (another writer changed it), or the record to create exists (an earlier try wrote it).
 */
function refusedRecord(outcome: CosmosOutcome | null, failed: number, operationCount: number, recordAt: 'first' | 'last'): boolean {
  if (recordAt === 'first') return failed === 0 && (outcome === 'precondition_failed' || outcome === 'not_found');
  return failed === operationCount - 1 && outcome === 'conflict';
}

/** The batch operation that keeps a keyed request's answer; an upsert, as a key used again a day later answers another request. */
function keptAnswer(item: HistoryItem, answer: KeyedAnswer): OperationInput {
  const answerItem: KeyedAnswerItem = {
    id: keyedAnswerId(answer.keyId),
    customer_id: item.customer_id,
    record: 'keyed_answer',
    validation_id: item.validation_id,
    answer: answer.body,
    ttl: keyedAnswerTtlSeconds,
  };
  return { operationType: 'Upsert', partitionKey: item.customer_id, resourceBody: answerItem as unknown as JSONObject };
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}

/** `/review/state` as the SQL path `c.review.state`. */
const field = (path: string) => `c${path.replaceAll('/', '.')}`;
