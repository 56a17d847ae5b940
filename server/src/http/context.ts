import type { Principal } from '../auth/principal.js';
import type { OperationInfo } from '../contract/contract.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../logger.js';
import type { RateLimitState } from '../services/rate-limits/rate-limiter.js';

/** What the pipeline learns about a request, step by step; the handler gets a CallContext made from it. */
export interface RequestContext {
  requestId: string;
  log: Logger;
  clock: Clock;
  operation?: OperationInfo;
  /** The path parameters of the operation. */
  params?: Record<string, string>;
  principal?: Principal;
  rateLimit?: RateLimitState;
}

declare global {
  namespace Express {
    interface Request {
      ctx: RequestContext;
    }
  }
}
