// What every layer knows about the call it serves: who is calling (when anyone is), the request's
// id and logger, the clock, a signal that fires when the client goes away, and what its
// Idempotency-Key binds.

import type { Clock } from '../lib/clock.js';
import { type IdPrefix, newId } from '../lib/ids.js';
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
  /** Set when the call carries an Idempotency-Key (http/idempotency.ts). */
  keyed: KeyedCall | null;
}

/**
 * What an Idempotency-Key binds (decision S95): the id of what the call creates, fixed when the key was
 * first claimed, so that a retry after a crash names the same resource and finds what the crashed
 * try wrote instead of writing it again.
 */
export interface KeyedCall {
  /** The ULID shared by every try of the key. */
  boundId: string;
  /** The key's own id (a hash of it), under which a write may keep the answer it reports. */
  keyId: string;
  /** This try took the key over from one that stopped (its process died, or it failed): look for its writes first. */
  takenOver: boolean;
}

/**
 * What an earlier try of the call wrote, looked up by `find` only when this try took its key over
 * (a process that died after the write); null otherwise, with no lookup.
 */
export function writtenByEarlierTry<T>(ctx: Pick<CallContext<unknown>, 'keyed'>, find: () => Promise<T | null>): Promise<T | null> {
  return ctx.keyed?.takenOver ? find() : Promise.resolve(null);
}

/** The id of what the call creates: bound to its Idempotency-Key when it has one, new otherwise. */
export function idFor(ctx: Pick<CallContext<unknown>, 'keyed'>, prefix: IdPrefix, now: Date): string {
  return ctx.keyed ? `${prefix}_${ctx.keyed.boundId}` : newId(prefix, now.getTime());
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
