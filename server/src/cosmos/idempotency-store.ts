// Idempotency records: the first response to a tenant's Idempotency-Key, kept for 24 hours. Creating
// the record is the lock, so of two concurrent requests with one key only one runs its handler.
import type { Container } from '@azure/cosmos';
import { sha256Hex } from '../lib/hash.js';
import type { ClaimResult, IdempotencyKeys, IdempotencyRecord, StoredResponse } from '../ports/idempotency-keys.js';
import { daysToSeconds } from './containers.js';
import { cosmosOutcome } from './cosmos-status.js';

export const idempotencyWindowSeconds = daysToSeconds(1);

const isConflict = (error: unknown) => cosmosOutcome(error) === 'conflict';
const isGone = (error: unknown) => cosmosOutcome(error) === 'not_found' || cosmosOutcome(error) === 'precondition_failed';

export class IdempotencyStore implements IdempotencyKeys {
  constructor(
    private readonly container: Container,
    /** An in-progress record older than this belongs to a request that died; another may take over. */
    private readonly abandonedAfterMs = 10 * 60 * 1000,
  ) {}

  static recordId(key: string): string {
    return sha256Hex(key);
  }

  /** Creates the in-progress record for the key, or returns the one that is already there. */
  async claim(customerId: string, key: string, operationId: string, fingerprint: string, now: Date): Promise<ClaimResult> {
    const record: IdempotencyRecord = {
      id: IdempotencyStore.recordId(key),
      customer_id: customerId,
      kind: 'idempotency',
      operation_id: operationId,
      fingerprint,
      state: 'in_progress',
      response: null,
      created_at: now.toISOString(),
      ttl: idempotencyWindowSeconds,
    };
    try {
      await this.container.items.create(record);
      return { claimed: true, record };
    } catch (error) {
      if (!isConflict(error)) throw error;
    }
    const { resource: existing, etag } = await this.container.item(record.id, customerId).read<IdempotencyRecord>();
    if (!existing) return this.claim(customerId, key, operationId, fingerprint, now);
    const age = now.getTime() - Date.parse(existing.created_at);
    const expired = age >= idempotencyWindowSeconds * 1000;
    const abandoned = existing.state === 'in_progress' && age >= this.abandonedAfterMs;
    if (!expired && !abandoned) return { claimed: false, record: existing };
    // Take over an expired or abandoned record, unless another request just did.
    try {
      await this.container.item(record.id, customerId).replace(record, { accessCondition: { type: 'IfMatch', condition: etag! } });
      return { claimed: true, record };
    } catch (error) {
      if (!isGone(error)) throw error;
      return this.claim(customerId, key, operationId, fingerprint, now);
    }
  }

  /** Stores the response the handler produced; replays are served from it until the record expires. */
  async complete(record: IdempotencyRecord, response: StoredResponse): Promise<void> {
    await this.container.item(record.id, record.customer_id).replace<IdempotencyRecord>({ ...record, state: 'completed', response });
  }

  /** Forgets the key, so a retry runs the handler again (after a 5xx or 429, or a lost response). */
  async release(record: IdempotencyRecord): Promise<void> {
    try {
      await this.container.item(record.id, record.customer_id).delete();
    } catch (error) {
      if (!isGone(error)) throw error;
    }
  }
}
