// Validation history (container `history`, partitioned by tenant) and the tenant's usage counters,
// which live in the same partition so that a record and the counters it changes are written in one
// transactional batch. A record carries an outbox: the audit entries still to append. It is cleared
// once they are in the audit trail; a record whose outbox is still pending is completed by recovery.
import type { Container, JSONObject, OperationInput } from '@azure/cosmos';
import type { components } from '../generated/openapi.js';
import { cosmosOutcome } from './cosmos-status.js';

type ValidationRecord = components['schemas']['ValidationRecord'];
type Mode = components['schemas']['Mode'];

export interface HistoryItem extends ValidationRecord {
  id: string;
  customer_id: string;
  record: 'validation';
  /** Seconds until Cosmos DB expires the item (HISTORY_TTL_DAYS). */
  ttl: number;
  /** Audit entries (facts only, never content) not yet appended; empty once they are. */
  outbox: unknown[];
  outbox_pending: boolean;
}

export interface UsageCounters {
  validations: { total: number; with_issues: number; by_mode: Record<Mode, number>; by_month: Record<string, number> };
}

interface CountersItem extends UsageCounters {
  id: typeof countersId;
  customer_id: string;
  record: 'usage_counters';
}

const countersId = 'usage_counters';
const writeAttempts = 30;

export const emptyCounters = (): UsageCounters => ({
  validations: { total: 0, with_issues: 0, by_mode: { validate: 0, generate: 0, validate_and_fix: 0 }, by_month: {} },
});

export class HistoryStore {
  constructor(private readonly container: Container) {}

  /**
   * Creates the record and applies `count` to the counters in one transactional batch. The counters
   * go first, guarded by their ETag: when another writer changed them, nothing is written and the
   * batch is built again from what they hold now.
   */
  async create(item: HistoryItem, count: (counters: UsageCounters) => UsageCounters): Promise<void> {
    for (let attempt = 0; attempt < writeAttempts; attempt += 1) {
      const { resource, etag } = await this.container.item(countersId, item.customer_id).read<CountersItem>();
      const next: CountersItem = {
        ...count(resource ?? emptyCounters()),
        id: countersId,
        customer_id: item.customer_id,
        record: 'usage_counters',
      };
      const writeCounters: OperationInput = resource
        ? { operationType: 'Replace', id: countersId, partitionKey: item.customer_id, ifMatch: etag, resourceBody: { ...next } }
        : { operationType: 'Create', partitionKey: item.customer_id, resourceBody: { ...next } };
      const response = await this.container.items.batch(
        [writeCounters, { operationType: 'Create', partitionKey: item.customer_id, resourceBody: { ...item } as unknown as JSONObject }],
        item.customer_id,
      );
      const [counters, created] = response.result ?? [];
      if (counters && created && counters.statusCode < 300 && created.statusCode < 300) return;
      const raced = cosmosOutcome(counters?.statusCode) === 'precondition_failed' || cosmosOutcome(counters?.statusCode) === 'conflict';
      if (!raced) throw new Error(`history batch failed with ${counters?.statusCode}/${created?.statusCode}`);
    }
    throw new Error(`history write for ${item.customer_id} lost ${writeAttempts} races for the counters`);
  }

  async get(customerId: string, validationId: string): Promise<HistoryItem | null> {
    const { resource } = await this.container.item(validationId, customerId).read<HistoryItem>();
    return resource?.record === 'validation' ? resource : null;
  }

  async counters(customerId: string): Promise<UsageCounters> {
    const { resource } = await this.container.item(countersId, customerId).read<CountersItem>();
    return resource ?? emptyCounters();
  }

  async clearOutbox(customerId: string, validationId: string): Promise<void> {
    await this.container.item(validationId, customerId).patch([
      { op: 'set', path: '/outbox', value: [] },
      { op: 'set', path: '/outbox_pending', value: false },
    ]);
  }

  /** Records whose outbox is still pending and that were created before `before` (ISO time). */
  async pendingOutboxes(customerId: string, before: string): Promise<HistoryItem[]> {
    const { resources } = await this.container.items
      .query<HistoryItem>(
        {
          query: 'SELECT * FROM c WHERE c.customer_id = @cid AND c.record = @record AND c.outbox_pending = true AND c.created_at < @before',
          parameters: [
            { name: '@cid', value: customerId },
            { name: '@record', value: 'validation' },
            { name: '@before', value: before },
          ],
        },
        { partitionKey: customerId },
      )
      .fetchAll();
    return resources;
  }
}
