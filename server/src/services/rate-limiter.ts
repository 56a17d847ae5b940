// Per-tenant fixed-window request counting. Counts are kept per server process.
import type { Tenant } from '../tenants/tenant.js';

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  reset: number;
  allowed: boolean;
}

export class RateLimiter {
  private readonly windows = new Map<string, { startedAt: number; count: number }>();

  consume(tenant: Tenant, now = Date.now()): RateLimitState {
    const { requests, windowSeconds } = tenant.rateLimit;
    const windowMs = windowSeconds * 1000;
    let window = this.windows.get(tenant.customerId);
    if (!window || now - window.startedAt >= windowMs) {
      window = { startedAt: now, count: 0 };
      this.windows.set(tenant.customerId, window);
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
}
