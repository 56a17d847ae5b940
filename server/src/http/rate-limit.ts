import type { RequestHandler, Response } from 'express';
import { RateLimitError } from '../errors.js';
import type { RateLimitState } from '../services/call-context.js';
import type { RateLimiter } from './rate-limiter.js';

function setHeaders(res: Response, state: RateLimitState) {
  res.setHeader('RateLimit-Limit', String(state.limit));
  res.setHeader('RateLimit-Remaining', String(state.remaining));
  res.setHeader('RateLimit-Reset', String(state.reset));
}

/** Counts authenticated calls against the tenant's limit and reports the window in headers. */
export function rateLimit(limiter: RateLimiter): RequestHandler {
  return async (req, res, next) => {
    const principal = req.ctx.principal;
    if (!principal) return next();
    const { rateLimit: limit, customerId } = principal.tenant;
    const now = req.ctx.clock.now().getTime();
    // A principal with a sub-limit is counted on its own first: a call it may not make does not spend the tenant's quota.
    if (limit.perPrincipal !== undefined) {
      const own = await limiter.consume(
        { partition: customerId, name: `principal:${principal.type}:${principal.id}` },
        { requests: limit.perPrincipal, windowSeconds: limit.windowSeconds },
        now,
      );
      if (!own.allowed) {
        setHeaders(res, own);
        throw new RateLimitError(
          'rate_limited',
          `This caller's limit of ${own.limit} requests per ${limit.windowSeconds} seconds is used up; retry in ${own.reset} seconds.`,
          own.reset,
        );
      }
    }
    const state = await limiter.consume({ partition: customerId, name: 'tenant' }, limit, now);
    req.ctx.rateLimit = state;
    setHeaders(res, state);
    if (!state.allowed) {
      throw new RateLimitError(
        'rate_limited',
        `The tenant's limit of ${state.limit} requests per ${limit.windowSeconds} seconds is used up; retry in ${state.reset} seconds.`,
        state.reset,
      );
    }
    next();
  };
}

/**
 * Counts calls to operations that take a body but no credentials (login) per client address, before
 * the body is read: nobody can make the server parse bodies faster than this without an account.
 */
export function anonymousRateLimit(limiter: RateLimiter, requestsPerMinute: number): RequestHandler {
  return async (req, res, next) => {
    const operation = req.ctx.operation!;
    if (operation.requiredRole !== 'none' || !operation.hasBody) return next();
    const state = await limiter.consume(
      { partition: `address:${req.ip ?? 'unknown'}`, name: 'anonymous' },
      { requests: requestsPerMinute, windowSeconds: 60 },
      req.ctx.clock.now().getTime(),
    );
    setHeaders(res, state);
    if (!state.allowed) {
      throw new RateLimitError(
        'rate_limited',
        `This address's limit of ${state.limit} requests per minute without credentials is used up; retry in ${state.reset} seconds.`,
        state.reset,
      );
    }
    next();
  };
}
