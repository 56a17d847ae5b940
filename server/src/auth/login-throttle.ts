// Counts failed logins per account and per client address within a window; more than the
// allowance locks that key out until the window ends.
export interface ThrottleLimits {
  perAccount: number;
  perAddress: number;
  windowSeconds: number;
}

export const defaultThrottleLimits: ThrottleLimits = { perAccount: 5, perAddress: 20, windowSeconds: 900 };

export class LoginThrottle {
  private readonly failures = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly limits: ThrottleLimits = defaultThrottleLimits) {}

  /** Seconds until another attempt is allowed, or 0 when it is allowed now. */
  retryAfter(account: string, address: string, now: number): number {
    const waits = [this.wait(`a:${account}`, this.limits.perAccount, now), this.wait(`ip:${address}`, this.limits.perAddress, now)];
    return Math.max(...waits);
  }

  recordFailure(account: string, address: string, now: number) {
    for (const key of [`a:${account}`, `ip:${address}`]) {
      const entry = this.failures.get(key);
      if (!entry || entry.resetAt <= now) this.failures.set(key, { count: 1, resetAt: now + this.limits.windowSeconds * 1000 });
      else entry.count += 1;
    }
    this.prune(now);
  }

  recordSuccess(account: string) {
    this.failures.delete(`a:${account}`);
  }

  private wait(key: string, allowance: number, now: number): number {
    const entry = this.failures.get(key);
    if (!entry || entry.resetAt <= now || entry.count < allowance) return 0;
    return Math.ceil((entry.resetAt - now) / 1000);
  }

  private prune(now: number) {
    if (this.failures.size < 10_000) return;
    for (const [key, entry] of this.failures) if (entry.resetAt <= now) this.failures.delete(key);
  }
}
