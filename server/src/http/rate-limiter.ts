// Fixed-window request counting per key (a tenant, a caller, or a client address for calls without
// credentials), in the store, so that every process of a deployment counts against the same limit.
// Windows are aligned to the clock (a window of 60 s starts on the minute), so all processes agree.
//
// Each process keeps a cache in front of the shared count, so that a call far from its limit does
// not wait for the store: it is answered from the last shared count this process saw plus the calls
// it has answered since, and those calls are added to the shared count in the background, a fiftieth
// of the limit at a time. A call is counted in the store before it is answered (exactly) when its
// key is new to the process in this window, when the limit is small, in the last tenth of the limit,
// and when the calls this process has not yet added reach two fiftieths. A limit can therefore be
// exceeded by at most that many calls per process.

import type { Logger } from '../logger.js';
import type { WindowCounts, WindowKey } from '../ports/window-counts.js';
import type { RateLimitState } from '../services/call-context.js';

export interface RateLimit {
  requests: number;
  windowSeconds: number;
}

interface LocalWindow {
  /** When the window ends (ms). */
  endsAt: number;
  /** The shared count as this process last saw it. */
  shared: number;
  /** Calls answered here and not yet added to the shared count. */
  pending: number;
  /** Calls being added to the shared count, whose addition has not yet answered. */
  sending: number;
  flushedAt: number;
  flushing: boolean;
  /** The window's first count in the store from this process, while it is under way. */
  firstCount: Promise<void> | null;
}

/** Limits below this are always counted exactly: batching a few calls would save little. */
const smallestCachedLimit = 100;
/** The share of the limit after which every call is counted in the store before it is answered. */
const exactFrom = 0.9;
const flushIntervalMs = 100;
/** Keys kept at once; past it, new keys are counted exactly rather than cached. */
const maxWindows = 10_000;

export class RateLimiter {
  private readonly windows = new Map<string, LocalWindow>();

  constructor(
    private readonly counts: WindowCounts,
    private readonly log: Logger,
  ) {}

  async consume(key: WindowKey, { requests, windowSeconds }: RateLimit, now: number): Promise<RateLimitState> {
    const windowMs = windowSeconds * 1000;
    const windowStart = Math.floor(now / windowMs) * windowMs;
    const id = JSON.stringify([key.partition, key.name, windowStart]);
    const state = (count: number): RateLimitState => ({
      limit: requests,
      remaining: Math.max(0, requests - count),
      reset: Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)),
      allowed: count <= requests,
    });
    let local = this.windows.get(id);
    // Calls that arrive while the window's first count is in the store wait for what it learns.
    if (local?.firstCount) await local.firstCount;
    local = this.windows.get(id);
    // Calls answered here and not yet added are at most two batches: one being added, one pending.
    const batch = Math.max(1, Math.floor(requests / 50));
    if (local && local.shared + local.sending + local.pending + 1 <= requests * exactFrom && local.pending < batch) {
      return state(this.countLocally(key, windowStart, windowSeconds, local, batch, now));
    }
    // Counted exactly, with whatever this process had not yet added.
    const taken = local?.pending ?? 0;
    if (local) {
      local.pending = 0;
      local.sending += taken + 1;
    }
    const first = !local && requests >= smallestCachedLimit ? this.remember(id, windowStart + windowMs, now) : null;
    const counting = this.counts.increment(key, windowStart, windowSeconds, taken + 1);
    if (first) {
      // Settled before any waiting call goes on, so that they all see the shared count.
      first.firstCount = counting.then(
        (count) => {
          first.shared = Math.max(first.shared, count);
          first.firstCount = null;
        },
        () => void this.windows.delete(id),
      );
    }
    let count: number;
    try {
      count = await counting;
    } catch (error) {
      if (local) {
        local.sending -= taken + 1;
        local.pending += taken;
      }
      throw error;
    }
    if (local) {
      local.sending -= taken + 1;
      local.shared = Math.max(local.shared, count);
    }
    return state(count);
  }

  /** Counts a call in the cache, and starts adding the pending calls to the shared count when a batch is due. */
  private countLocally(key: WindowKey, windowStart: number, windowSeconds: number, local: LocalWindow, batch: number, now: number): number {
    local.pending += 1;
    const count = local.shared + local.sending + local.pending;
    if (!local.flushing && (local.pending >= batch || now - local.flushedAt >= flushIntervalMs))
      this.flush(key, windowStart, windowSeconds, local, now);
    return count;
  }

  /** Adds the window's pending calls to the shared count in the background. */
  private flush(key: WindowKey, windowStart: number, windowSeconds: number, local: LocalWindow, now: number): void {
    const taken = local.pending;
    local.pending = 0;
    local.sending += taken;
    local.flushing = true;
    this.counts
      .increment(key, windowStart, windowSeconds, taken)
      .then((count) => {
        local.sending -= taken;
        local.shared = Math.max(local.shared, count);
      })
      .catch((error: unknown) => {
        local.sending -= taken;
        local.pending += taken;
        this.log.warn({ err: error }, 'rate-limit counts not yet added to the shared count; the next call retries');
      })
      .finally(() => {
        local.flushing = false;
        local.flushedAt = now;
      });
  }

  /** A new cached window, or null when the cache is full of windows that have not ended. */
  private remember(id: string, endsAt: number, now: number): LocalWindow | null {
    if (this.windows.size >= maxWindows) {
      for (const [key, window] of this.windows) if (window.endsAt <= now && !window.flushing) this.windows.delete(key);
      if (this.windows.size >= maxWindows) return null;
    }
    const window: LocalWindow = { endsAt, shared: 0, pending: 0, sending: 0, flushedAt: now, flushing: false, firstCount: null };
    this.windows.set(id, window);
    return window;
  }
}
