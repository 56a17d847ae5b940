// Deletes every item of one tenant's partition of a container, whatever its kind (records, locks,
// counters, rollups, caches), a page at a time. Each page is read afresh after the previous one is
// deleted, so a run that was interrupted simply starts again on what is left.
import type { Container, OperationInput } from '@azure/cosmos';
import { type ContainerName, containerDefinitions } from './containers.js';
import { cosmosOutcome } from './cosmos-status.js';

/**
 * Containers whose items outlive the account: the audit trail (section 6.2 rule 1: events leave
 * only through retention) and the account's own state (the deletion marker).
 */
const keptAfterDeletion: ReadonlySet<ContainerName> = new Set(['audit', 'tenant_state']);

/** Every container the account's data lives in, including ones added after this was written. */
export function purgedContainers(): ContainerName[] {
  return containerDefinitions.map((definition) => definition.id).filter((name) => !keptAfterDeletion.has(name));
}

/** A transactional batch holds at most 100 operations. */
const pageSize = 100;

export interface PurgeOptions {
  /** Called after each deleted page with the number of items it held. */
  onPage?: (deleted: number) => Promise<void>;
}

/** Deletes the partition's items and returns how many there were. */
export async function purgePartition(container: Container, customerId: string, options: PurgeOptions = {}): Promise<number> {
  let deleted = 0;
  for (;;) {
    const { resources } = await container.items
      .query<{ id: string }>(
        { query: 'SELECT c.id FROM c WHERE c.customer_id = @cid', parameters: [{ name: '@cid', value: customerId }] },
        { partitionKey: customerId, maxItemCount: pageSize },
      )
      .fetchNext();
    if (resources.length === 0) return deleted;
    await deletePage(container, customerId, resources.slice(0, pageSize));
    deleted += resources.length;
    await options.onPage?.(resources.length);
  }
}

/** One batch for the page; when it fails as a whole (an item went meanwhile), one delete per item. */
async function deletePage(container: Container, customerId: string, items: { id: string }[]): Promise<void> {
  const operations: OperationInput[] = items.map(({ id }) => ({ operationType: 'Delete', id, partitionKey: customerId }));
  const response = await container.items.batch(operations, customerId);
  if (response.result?.every((r) => r.statusCode < 300)) return;
  for (const { id } of items) {
    try {
      await container.item(id, customerId).delete();
    } catch (error) {
      if (cosmosOutcome(error) !== 'not_found') throw error;
    }
  }
}
