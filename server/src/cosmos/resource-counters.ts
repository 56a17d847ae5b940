// The tenant's stored sources and templates as counts (decision row 7: `sources` and `templates` of
// the stats), one document in the tenant's partition of `history`, read with one point read. Writes
// add a difference with Cosmos DB's atomic `incr` patch, so concurrent changes never lose one.
import type { Container, PatchOperation } from '@azure/cosmos';
import type { Stats } from '@groundcheck/contract';
import { cosmosOutcome } from './cosmos-status.js';

export type ResourceCounts = Pick<Stats, 'sources' | 'templates'>;

/** The counters by their path in the document; `sources/files` counts files whose bytes are stored and checked (`ready`). */
const counterPaths = ['sources/groups', 'sources/files', 'sources/bytes', 'templates/total', 'templates/active'] as const;
export type ResourceDifference = Partial<Record<(typeof counterPaths)[number], number>>;

const countersId = 'resource_counters';
const attempts = 3;

const zeroCounts = (): ResourceCounts => ({ sources: { groups: 0, files: 0, bytes: 0 }, templates: { total: 0, active: 0 } });

export class ResourceCounters {
  constructor(private readonly container: Container) {}

  /** Adds `difference` to the tenant's counts; the document is created by the first change. */
  async add(customerId: string, difference: ResourceDifference): Promise<void> {
    const operations: PatchOperation[] = counterPaths
      .filter((path) => (difference[path] ?? 0) !== 0)
      .map((path) => ({ op: 'incr', path: `/${path}`, value: difference[path]! }));
    if (operations.length === 0) return;
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.container.item(countersId, customerId).patch(operations);
        return;
      } catch (error) {
        if (cosmosOutcome(error) !== 'not_found' || attempt >= attempts) throw error;
      }
      const first = applied(zeroCounts(), difference);
      try {
        await this.container.items.create({ ...first, id: countersId, customer_id: customerId, record: countersId });
        return;
      } catch (error) {
        // Another writer created it first: add to theirs.
        if (cosmosOutcome(error) !== 'conflict') throw error;
      }
    }
  }

  async read(customerId: string): Promise<ResourceCounts> {
    const { resource } = await this.container.item(countersId, customerId).read<ResourceCounts>();
    const counts = zeroCounts();
    const stored = resource ?? zeroCounts();
    // Never below zero, even if a write was counted off that had not been counted on.
    for (const group of ['sources', 'templates'] as const)
      for (const [name, value] of Object.entries(stored[group]))
        if (Object.hasOwn(counts[group], name)) (counts[group] as Record<string, number>)[name] = Math.max(0, value);
    return counts;
  }
}

function applied(counts: ResourceCounts, difference: ResourceDifference): ResourceCounts {
  for (const path of counterPaths) {
    const [group, name] = path.split('/') as ['sources' | 'templates', string];
    (counts[group] as Record<string, number>)[name]! += difference[path] ?? 0;
  }
  return counts;
}
