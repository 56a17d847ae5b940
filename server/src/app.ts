// The request pipeline: every request passes the same steps, in this order.
import express, { type Express } from 'express';
import type { Authenticator } from './auth/authenticator.js';
import { authenticate } from './http/authenticate.js';
import { authorize } from './http/authorize.js';
import { idempotency } from './http/idempotency.js';
import { problemHandler } from './http/problem.js';
import { anonymousRateLimit, rateLimit } from './http/rate-limit.js';
import { requestContext } from './http/request-context.js';
import { resolveOperation } from './http/resolve-operation.js';
import { validateBodies } from './http/body-validation.js';
import { parseBodies } from './http/body-parser.js';
import { securityHeaders } from './http/security-headers.js';
import { dropCredentials, validateAgainstContract } from './http/validation.js';
import type { Logger } from './logger.js';
import { dispatch, type RouteTable } from './routes/route-table.js';
import type { RateLimiter } from './services/rate-limiter.js';
import type { Contract } from './spec/contract.js';
import type { TrustProxy } from './config.js';
import type { IdempotencyStore } from './store/idempotency-store.js';

export interface AppDependencies {
  contract: Contract;
  log: Logger;
  authenticator: Authenticator;
  rateLimiter: RateLimiter;
  /** Requests per minute from one address to operations without credentials. */
  anonymousRateLimit: number;
  idempotency: IdempotencyStore;
  routes: RouteTable;
  validateResponses: boolean;
  trustProxy: TrustProxy;
}

export function createApp(deps: AppDependencies): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.trustProxy);
  app.use(requestContext(deps.log));
  app.use(securityHeaders());
  app.use(resolveOperation(deps.contract));
  // Before the body is read, so a caller without credentials cannot make the server parse at will.
  app.use(anonymousRateLimit(deps.rateLimiter, deps.anonymousRateLimit));
  app.use(parseBodies());
  // Credentials are checked before the body is validated, so an unauthenticated caller learns
  // nothing about the request shape and a forbidden call is refused whatever it sends.
  app.use(authenticate(deps.authenticator));
  app.use(rateLimit(deps.rateLimiter));
  app.use(authorize);
  app.use(validateBodies(deps.contract));
  app.use(validateAgainstContract(deps.contract, deps.validateResponses));
  app.use(dropCredentials);
  // After validation, so a malformed request never claims a key; before the handler, which may not run twice.
  app.use(idempotency(deps.idempotency));
  app.use(dispatch(deps.routes));
  app.use(problemHandler);
  return app;
}
