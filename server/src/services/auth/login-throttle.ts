// Counts failed logins per account and client address, and per client address, within a window, in
// the store so that every process counts the same attempts. More failures than the allowance lock
// that key out until the window ends. An account is never locked by its email alone: a stranger's
// guesses from another address do not lock out its owner.

import { sha256Hex } from '../../lib/hash.js';
import type { WindowCounts, WindowKey } from '../../ports/window-counts.js';

export interface ThrottleLimits {
  /** Failures allowed for one account from one address. */
  perAccount: number;
  /** Failures allowed from one address, over every account. */
  perAddress: number;
  windowSeconds: number;
}

export const defaultThrottleLimits: ThrottleLimits = { perAccount: 5, perAddress: 20, windowSeconds: 900 };

export class LoginThrottle {
  constructor(
    private readonly counts: WindowCounts,
    private readonly limits: ThrottleLimits = defaultThrottleLimits,
  ) {}

  /** Seconds until another attempt is allowed, or 0 when it is allowed now. */
  async retryAfter(account: string, address: string, now: number): Promise<number> {
    const start = this.windowStart(now);
    const [byAccount, byAddress] = await Promise.all([
      this.counts.count(accountKey(account, address), start),
      this.counts.count(addressKey(address), start),
    ]);
    const locked = byAccount >= this.limits.perAccount || byAddress >= this.limits.perAddress;
    return locked ? Math.max(1, Math.ceil((start + this.limits.windowSeconds * 1000 - now) / 1000)) : 0;
  }

  async recordFailure(account: string, address: string, now: number): Promise<void> {
    const start = this.windowStart(now);
    await Promise.all([
      this.counts.increment(accountKey(account, address), start, this.limits.windowSeconds),
      this.counts.increment(addressKey(address), start, this.limits.windowSeconds),
    ]);
  }

  async recordSuccess(account: string, address: string, now: number): Promise<void> {
    await this.counts.clear(accountKey(account, address), this.windowStart(now));
  }

  private windowStart(now: number): number {
    const windowMs = this.limits.windowSeconds * 1000;
    return Math.floor(now / windowMs) * windowMs;
  }
}

const addressKey = (address: string): WindowKey => ({ partition: `address:${address}`, name: 'failed_logins' });
// The account's tenant is the first part of `account` ("acme/uma@example.com"); the email and address
// are kept only as a hash (no personal data in the store's ids, and no character an id may not hold).
const accountKey = (account: string, address: string): WindowKey => ({
  partition: account.slice(0, account.indexOf('/')),
  name: `failed_logins:${sha256Hex(`${account}\n${address}`)}`,
});
