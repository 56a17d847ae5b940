// Reads shared by the stores whose container holds several kinds of item per tenant partition: a
// point read that answers only for the tenant's own item of the expected kind, and the list and
// count of one kind, always single-partition and filtered by tenant in SQL too (the emulator
// ignores the partition key on queries).
import type { Container, SqlParameter } from '@azure/cosmos';
import { cosmosOutcome } from './cosmos-status.js';

interface TenantItem {
  customer_id: string;
  kind: string;
}

/** The tenant's item `id` of `kind`, with its `_etag`; null when missing, of another kind or tenant. */
export async function readTenantItem<T extends TenantItem>(
  container: Container,
  customerId: string,
  id: string,
  kind: T['kind'],
): Promise<(T & { _etag?: string }) | null> {
  try {
    const { resource } = await container.item(id, customerId).read<T & { _etag?: string }>();
    return resource?.kind === kind && resource.customer_id === customerId ? resource : null;
  } catch (error) {
    if (cosmosOutcome(error) === 'not_found') return null;
    throw error;
  }
}

/** `WHERE` clause and parameters selecting the tenant's items of `kind` with the given field values. */
function selection(customerId: string, kind: string, where: Record<string, string>): { clause: string; parameters: SqlParameter[] } {
  const fields = Object.entries(where);
  return {
    clause: ['c.customer_id = @cid', 'c.kind = @kind', ...fields.map(([field], i) => `c.${field} = @v${i}`)].join(' AND '),
    parameters: [
      { name: '@cid', value: customerId },
      { name: '@kind', value: kind },
      ...fields.map(([, value], i) => ({ name: `@v${i}`, value })),
    ],
  };
}

/** Every item of `kind` in the tenant's partition: for kinds whose number per tenant is capped. */
export async function listTenantItems<T extends TenantItem>(container: Container, customerId: string, kind: T['kind']): Promise<T[]> {
  const { clause, parameters } = selection(customerId, kind, {});
  const { resources } = await container.items
    .query<T>({ query: `SELECT * FROM c WHERE ${clause}`, parameters }, { partitionKey: customerId })
    .fetchAll();
  return resources;
}

/** How many items of `kind` the tenant has, optionally only those whose fields equal `where` (field names are the caller's). */
export async function countTenantItems(
  container: Container,
  customerId: string,
  kind: string,
  where: Record<string, string> = {},
): Promise<number> {
  const { clause, parameters } = selection(customerId, kind, where);
  const { resources } = await container.items
    .query<number>({ query: `SELECT VALUE COUNT(1) FROM c WHERE ${clause}`, parameters }, { partitionKey: customerId })
    .fetchAll();
  return resources[0] ?? 0;
}
