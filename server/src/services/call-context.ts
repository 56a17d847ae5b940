// What every layer knows about the call it serves: who is calling (when anyone is), the request's
// id and logger, the clock, and a signal that fires when the client goes away.

import type { Clock } from '../lib/clock.js';
import type { Logger } from '../logger.js';
import type { Tenant } from '../tenants/tenant.js';
import type { Principal } from './auth/principal.js';

/** The caller's rate limit after this call, as the RateLimit headers and a validation's `rate_limit` show it. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  reset: number;
  allowed: boolean;
}

export interface CallContext<Path = Record<string, never>> {
  requestId: string;
  /** A child logger that writes the request id on every line. */
  log: Logger;
  clock: Clock;
  /** Aborted when the client disconnects before the response is complete. */
  abortSignal: AbortSignal;
  /** The caller's address as the trusted proxies saw it. */
  clientAddress: string;
  /** Null only on operations that take no credentials. */
  principal: Principal | null;
  tenant: Tenant | null;
  rateLimit: RateLimitState | null;
  /** The path's parameters, typed by the operation. */
  path: Path;
}

/** A call by an authenticated principal of a tenant. */
export interface Caller<Path = Record<string, never>> extends CallContext<Path> {
  principal: Principal;
  tenant: Tenant;
}

/** The caller of an authenticated operation; the pipeline guarantees one is there. */
export function callerOf<Path>(ctx: CallContext<Path>): Caller<Path> {
  if (!ctx.principal || !ctx.tenant) throw new Error(`request ${ctx.requestId} reached an authenticated operation without a principal`);
  return ctx as Caller<Path>;
}
