import { containerDefinitions } from '../../src/cosmos/containers.js';
import type { CosmosStore } from '../../src/cosmos/cosmos.js';

/**
 * Every item of every container, without Cosmos system fields: to prove a request wrote nothing. The
 * request counts of rate limiting (`limits`) are left out: every request moves them, and they are no data.
 */
export async function snapshot(cosmos: CosmosStore): Promise<string> {
  const all: Record<string, unknown[]> = {};
  for (const { id } of containerDefinitions.filter((definition) => definition.id !== 'limits')) {
    const { resources } = await cosmos.container(id).items.query('SELECT * FROM c').fetchAll();
    all[id] = resources
      .map(({ _etag, _ts, _rid, _self, _attachments, ...item }) => item)
      .sort((a, b) => String(a.id).localeCompare(String(b.id)));
  }
  return JSON.stringify(all);
}
