// The call's context as the pipeline fills it in on `req.ctx`, step by step: the request id, logger
// and clock first, then the operation, the principal and the rate limit. The handler is given the
// whole of it as a CallContext (services/call-context.ts), the one definition of a call's context.
import type { OperationInfo } from '../contract/contract.js';
import type { CallContext } from '../services/call-context.js';

export type RequestContext = Pick<CallContext, 'requestId' | 'log' | 'clock'> &
  Partial<Pick<CallContext, 'principal' | 'rateLimit'>> & {
    operation?: OperationInfo;
    /** The path parameters of the operation. */
    params?: Record<string, string>;
    /** Aborted when the request reaches HTTP_REQUEST_TIMEOUT_MS (request-deadline.ts). */
    deadline?: AbortSignal;
  };

declare global {
  namespace Express {
    interface Request {
      ctx: RequestContext;
    }
  }
}
