// The request pipeline: every request passes the same steps, in this order.
import express, { type Express } from 'express';
import type { TrustProxy } from './config.js';
import type { Contract } from './contract/contract.js';
import type { ContractValidator } from './contract/validator.js';
import { apiReference } from './http/api-reference.js';
import { authenticate, authenticateHeader } from './http/authenticate.js';
import { authorize } from './http/authorize.js';
import { parseBodies } from './http/body-parser.js';
import { type ConsoleSite, consoleRouter } from './http/console/console-router.js';
import { dispatch } from './http/dispatch.js';
import { problemHandler } from './http/problem.js';
import { anonymousRateLimit, rateLimit } from './http/rate-limit.js';
import type { RateLimiter } from './http/rate-limiter.js';
import { requestDeadline } from './http/request-deadline.js';
import { requestTracing } from './http/request-tracing.js';
import { resolveOperation } from './http/resolve-operation.js';
import { securityHeaders } from './http/security-headers.js';
import { dropCredentials, validateRequest } from './http/validate-request.js';
import type { Clock } from './lib/clock.js';
import type { Logger } from './logger.js';
import type { IdempotencyKeys } from './ports/idempotency-keys.js';
import type { OperationTable } from './routes/operation.js';
import type { Authenticator } from './services/auth/authenticator.js';

export interface AppDependencies {
  contract: Contract;
  validator: ContractValidator;
  log: Logger;
  clock: Clock;
  authenticator: Authenticator;
  rateLimiter: RateLimiter;
  /** Requests per minute from one address to operations without credentials. */
  anonymousRateLimit: number;
  /** Time a request without credentials in its headers has to send its body. */
  unauthenticatedBodyTimeoutMs: number;
  /** The whole request's bound (HTTP_REQUEST_TIMEOUT_MS). */
  requestTimeoutMs: number;
  idempotency: IdempotencyKeys;
  operations: OperationTable;
  validateResponses: boolean;
  trustProxy: TrustProxy;
  /** The built console, the other origins its pages may call and the tenants it signs in; null when it has not been built. */
  console: ConsoleSite | null;
}

export function createApp(deps: AppDependencies): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.trustProxy);
  app.use(requestTracing(deps.log, deps.clock));
  app.use(requestDeadline(deps.requestTimeoutMs));
  app.use(securityHeaders());
  // /docs, /openapi.yaml and /console/ are pages, not operations of the contract.
  app.use(apiReference());
  if (deps.console)
    app.use(consoleRouter(deps.console, { limiter: deps.rateLimiter, requestsPerMinute: deps.anonymousRateLimit }, deps.contract));
  app.use(resolveOperation(deps.contract));
  // Before the body is read, so a caller without credentials cannot make the server parse at will.
  app.use(anonymousRateLimit(deps.rateLimiter, deps.anonymousRateLimit));
  // A bearer token is checked before the body is read: bad credentials cost no parsing.
  app.use(authenticateHeader(deps.authenticator));
  app.use(parseBodies(deps.unauthenticatedBodyTimeoutMs));
  // Credentials are checked before the body is validated, so an unauthenticated caller learns
  // nothing about the request shape and a forbidden call is refused whatever it sends.
  app.use(authenticate(deps.authenticator));
  app.use(rateLimit(deps.rateLimiter));
  app.use(authorize);
  app.use(validateRequest(deps.validator));
  app.use(dropCredentials);
  app.use(
    dispatch({
      operations: deps.operations,
      idempotency: deps.idempotency,
      contract: deps.validator,
      responses: deps.validateResponses ? deps.validator : null,
    }),
  );
  app.use(problemHandler);
  return app;
}
