import type { RequestHandler } from 'express';
import { RateLimitError } from '../errors.js';
import type { RateLimiter } from '../services/rate-limiter.js';

/** Counts authenticated calls against the tenant's limit and reports the window in headers. */
export function rateLimit(limiter: RateLimiter): RequestHandler {
  return (req, res, next) => {
    const principal = req.ctx.principal;
    if (!principal) return next();
    const state = limiter.consume(principal.tenant);
    req.ctx.rateLimit = state;
    res.setHeader('RateLimit-Limit', String(state.limit));
    res.setHeader('RateLimit-Remaining', String(state.remaining));
    res.setHeader('RateLimit-Reset', String(state.reset));
    if (!state.allowed) {
      throw new RateLimitError('rate_limited', `The tenant's limit of ${state.limit} requests per ${principal.tenant.rateLimit.windowSeconds} seconds is used up; retry in ${state.reset} seconds.`, state.reset);
    }
    next();
  };
}
