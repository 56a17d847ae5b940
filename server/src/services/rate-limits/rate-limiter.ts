// Fixed-window request counting per key (a tenant, or a client address for calls without
// credentials). Counts are kept per server process.

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

/** Past this many keys, windows that have ended are dropped, so a stream of new addresses cannot grow memory. */
const pruneAbove = 10_000;

export class RateLimiter {
  private readonly windows = new Map<string, { startedAt: number; count: number; windowMs: number }>();

  consume(key: string, { requests, windowSeconds }: RateLimit, now: number): RateLimitState {
    const windowMs = windowSeconds * 1000;
    let window = this.windows.get(key);
    if (!window || now - window.startedAt >= windowMs) {
      if (!window) this.prune(now);
      window = { startedAt: now, count: 0, windowMs };
      this.windows.set(key, window);
    }
    const allowed = window.count < requests;
    if (allowed) window.count += 1;
    return {
      limit: requests,
      remaining: requests - window.count,
      reset: Math.max(1, Math.ceil((window.startedAt + windowMs - now) / 1000)),
      allowed,
    };
  }

  private prune(now: number) {
    if (this.windows.size < pruneAbove) return;
    for (const [key, window] of this.windows) if (now - window.startedAt >= window.windowMs) this.windows.delete(key);
  }
}
