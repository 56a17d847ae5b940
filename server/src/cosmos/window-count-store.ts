// Counts per fixed time window (rate limits, failed logins), shared by every process of a deployment:
// one document per key and window, counted up with Cosmos patch `incr`, which needs no ETag and cannot
// lose a race. A window's document expires once the window is over.
import type { Container } from '@azure/cosmos';
import type { WindowCounts, WindowKey } from '../ports/window-counts.js';
import { cosmosOutcome } from './cosmos-status.js';

interface WindowItem {
  id: string;
  customer_id: string;
  record: 'window_count';
  count: number;
  ttl: number;
}

const itemId = (key: WindowKey, windowStart: number) => `${key.name}@${windowStart}`;

export class WindowCountStore implements WindowCounts {
  constructor(private readonly container: Container) {}

  /** Adds `by` to the key's count in the window that started at `windowStart` (ms) and returns the new count. */
  async increment(key: WindowKey, windowStart: number, windowSeconds: number, by = 1): Promise<number> {
    const id = itemId(key, windowStart);
    // The window's document is created by the first call in it; a second first call finds it and counts on.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      try {
        const { resource } = await this.container.item(id, key.partition).patch<WindowItem>([{ op: 'incr', path: '/count', value: by }]);
        if (resource) return resource.count;
      } catch (error) {
        if (cosmosOutcome(error) !== 'not_found') throw error;
      }
      try {
        const item: WindowItem = { id, customer_id: key.partition, record: 'window_count', count: by, ttl: 2 * windowSeconds };
        await this.container.items.create(item);
        return by;
      } catch (error) {
        if (cosmosOutcome(error) !== 'conflict') throw error;
      }
    }
    throw new Error(`window count ${id} could be neither created nor counted`);
  }

  /** The key's count in the window, 0 when nothing was counted. */
  async count(key: WindowKey, windowStart: number): Promise<number> {
    try {
      const { resource } = await this.container.item(itemId(key, windowStart), key.partition).read<WindowItem>();
      return resource?.count ?? 0;
    } catch (error) {
      if (cosmosOutcome(error) === 'not_found') return 0;
      throw error;
    }
  }

  /** Forgets the key's count in the window. */
  async clear(key: WindowKey, windowStart: number): Promise<void> {
    try {
      await this.container.item(itemId(key, windowStart), key.partition).delete();
    } catch (error) {
      if (cosmosOutcome(error) !== 'not_found') throw error;
    }
  }
}
