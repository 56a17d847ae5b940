// The account's own state, in the `tenant_state` container: the deletion marker. It is written
// before any of the tenant's data is deleted, refuses the tenant's credentials from then on, and
// stays after the data is gone, so a deleted account never comes back to life (not even through
// the tenant file's users at the next start).
import type { Container } from '@azure/cosmos';
import type { Actor } from '@groundcheck/contract';
import { cosmosOutcome } from './cosmos-status.js';

export interface DeletionMarker {
  id: typeof deletionMarkerId;
  customer_id: string;
  kind: 'account_deletion';
  /** `deleting` until every item and file is gone and the final audit event is written. */
  state: 'deleting' | 'deleted';
  requested_at: string;
  /** The admin who confirmed the deletion: the actor of the final audit event, also when recovery completes it. */
  requested_by: Actor;
  /** Moved on as the deletion progresses; recovery takes over a `deleting` marker only once this is old. */
  heartbeat_at: string;
  deleted_at: string | null;
  /** When the data was deleted once more, after any request admitted before the marker has ended. */
  swept_at: string | null;
}

const deletionMarkerId = 'account_deletion';

export class TenantStateStore {
  constructor(private readonly container: Container) {}

  async deletionMarker(customerId: string): Promise<DeletionMarker | null> {
    try {
      const { resource } = await this.container.item(deletionMarkerId, customerId).read<DeletionMarker>();
      return resource?.kind === 'account_deletion' && resource.customer_id === customerId ? withoutSystemFields(resource) : null;
    } catch (error) {
      if (cosmosOutcome(error) === 'not_found') return null;
      throw error;
    }
  }

  /** Writes the marker; when one is there already (a deletion under way or done), returns that one unchanged. */
  async markForDeletion(customerId: string, requestedBy: Actor, now: Date): Promise<DeletionMarker> {
    const marker: DeletionMarker = {
      id: deletionMarkerId,
      customer_id: customerId,
      kind: 'account_deletion',
      state: 'deleting',
      requested_at: now.toISOString(),
      requested_by: requestedBy,
      heartbeat_at: now.toISOString(),
      deleted_at: null,
      swept_at: null,
    };
    try {
      await this.container.items.create(marker);
      return marker;
    } catch (error) {
      if (cosmosOutcome(error) !== 'conflict') throw error;
      const existing = await this.deletionMarker(customerId);
      if (!existing) throw error;
      return existing;
    }
  }

  async heartbeat(marker: DeletionMarker, now: Date): Promise<void> {
    await this.container.item(marker.id, marker.customer_id).patch([{ op: 'set', path: '/heartbeat_at', value: now.toISOString() }]);
  }

  async markSwept(marker: DeletionMarker, now: Date): Promise<void> {
    await this.container.item(marker.id, marker.customer_id).patch([{ op: 'set', path: '/swept_at', value: now.toISOString() }]);
  }

  async markDeleted(marker: DeletionMarker, now: Date): Promise<DeletionMarker> {
    const deleted: DeletionMarker = { ...marker, state: 'deleted', heartbeat_at: now.toISOString(), deleted_at: now.toISOString() };
    await this.container.item(marker.id, marker.customer_id).replace(deleted);
    return deleted;
  }
}

function withoutSystemFields(item: DeletionMarker): DeletionMarker {
  const { _rid, _self, _etag, _attachments, _ts, ...marker } = item as DeletionMarker & Record<string, unknown>;
  return marker as DeletionMarker;
}
