// Fixed-window request counting per key (a tenant, or a client address for calls without
// credentials), in the store, so that every process of a deployment counts against the same limit.
// Windows are aligned to the clock (a window of 60 s starts on the minute), so all processes agree.
import type { WindowCountStore, WindowKey } from '../../store/window-count-store.js';

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  reset: number;
  allowed: boolean;
}

export interface RateLimit {
  requests: number;
  windowSeconds: number;
}

export class RateLimiter {
  constructor(private readonly counts: WindowCountStore) {}

  async consume(key: WindowKey, { requests, windowSeconds }: RateLimit, now: number): Promise<RateLimitState> {
    const windowMs = windowSeconds * 1000;
    const windowStart = Math.floor(now / windowMs) * windowMs;
    const count = await this.counts.increment(key, windowStart, windowSeconds);
    return {
      limit: requests,
      remaining: Math.max(0, requests - count),
      reset: Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)),
      allowed: count <= requests,
    };
  }
}
