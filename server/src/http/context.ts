import type { Logger } from '../logger.js';
import type { Principal } from '../auth/principal.js';
import type { OperationInfo } from '../spec/contract.js';
import type { RateLimitState } from '../services/rate-limiter.js';

export interface RequestContext {
  requestId: string;
  log: Logger;
  operation?: OperationInfo;
  principal?: Principal;
  rateLimit?: RateLimitState;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      ctx: RequestContext;
    }
  }
}

/** The caller of an authenticated operation; the pipeline guarantees one is there. */
export function principalOf(ctx: RequestContext): Principal {
  if (!ctx.principal) throw new Error(`operation ${ctx.operation?.operationId} reached its handler without a principal`);
  return ctx.principal;
}
