// The tenant's operating point (decision S113): one document in the tenant's partition of `history`, beside the
// counts, so that deleting the account deletes it with them. It holds the point in force when one was applied, the
// last fit (applied or not) and the audit event of the last application until it is in the trail. Every write is
// guarded by the ETag it was read with (or creates the document when there was none): of two processes fitting at
// once, one writes and the other finds it lost, so a change is applied, and audited, once.
import type { Container } from '@azure/cosmos';
import type { Actor, Calibration, OperatingPointFit } from '@groundcheck/contract';
import { cosmosOutcome } from './cosmos-status.js';

/** A point fitted to the tenant's decided reviews and applied. */
export interface AppliedPoint {
  /** Names this application (a ULID), so that its pending audit event is cleared by whoever wrote it. */
  id: string;
  applied_at: string;
  /** The tenant file's `engine.supported_score` when the point was applied: a file that says otherwise since wins. */
  file_supported_score: number;
  fit: OperatingPointFit;
}

/** The audit event of an application, kept until it is in the trail (recovery appends it when its writer stopped). */
export interface PendingEvent {
  application_id: string;
  at: string;
  actor: Actor;
  data: OperatingPointFit;
}

export interface OperatingPointItem {
  id: typeof operatingPointId;
  customer_id: string;
  record: 'operating_point';
  applied: AppliedPoint | null;
  /** The last fit: the server fits again once the tenant's usable decisions grew by `refit_every` since. */
  last_fit: { at: string; decisions: number; status: Calibration['status'] } | null;
  pending_event: PendingEvent | null;
}

export interface StoredOperatingPoint {
  item: OperatingPointItem;
  etag: string;
}

const operatingPointId = 'operating_point';

export class OperatingPointStore {
  constructor(private readonly container: Container) {}

  /** The tenant's document with its ETag; null when the tenant never had a fit. */
  async read(customerId: string): Promise<StoredOperatingPoint | null> {
    try {
      const { resource, etag } = await this.container.item(operatingPointId, customerId).read<OperatingPointItem>();
      if (!resource || resource.record !== 'operating_point' || resource.customer_id !== customerId) return null;
      return { item: withoutSystemFields(resource), etag };
    } catch (error) {
      if (cosmosOutcome(error) === 'not_found') return null;
      throw error;
    }
  }

  /**
   * Writes the tenant's document over the version `previous` was read as (creates it when there was none); the
   * new ETag, or null when another writer changed, created or deleted it first (nothing is written then).
   */
  async write(
    customerId: string,
    fields: Omit<OperatingPointItem, 'id' | 'customer_id' | 'record'>,
    previous: StoredOperatingPoint | null,
  ): Promise<string | null> {
    const item: OperatingPointItem = { id: operatingPointId, customer_id: customerId, record: 'operating_point', ...fields };
    try {
      const { etag } = previous
        ? await this.container
            .item(operatingPointId, customerId)
            .replace(item, { accessCondition: { type: 'IfMatch', condition: previous.etag } })
        : await this.container.items.create(item);
      return etag;
    } catch (error) {
      const outcome = cosmosOutcome(error);
      if (outcome === 'precondition_failed' || outcome === 'conflict' || outcome === 'not_found') return null;
      throw error;
    }
  }
}

function withoutSystemFields(item: OperatingPointItem): OperatingPointItem {
  const { _rid, _self, _etag, _attachments, _ts, ...rest } = item as OperatingPointItem & Record<string, unknown>;
  return rest as OperatingPointItem;
}
