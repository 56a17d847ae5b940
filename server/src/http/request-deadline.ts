// A request never outlives HTTP_REQUEST_TIMEOUT_MS. Node's own `requestTimeout` bounds only the
// receiving of a request; this bounds the whole of it: at the deadline the caller gets a 503 problem
// with Retry-After (unless an answer has begun) and the work is told to stop through the call's abort
// signal. What the work produces later is dropped (dispatch.ts, problem.ts).
import type { RequestHandler } from 'express';
import { UnavailableError } from '../errors.js';
import { problemReply } from './problem.js';

export function requestDeadline(timeoutMs: number): RequestHandler {
  return (req, res, next) => {
    const expired = new AbortController();
    req.ctx.deadline = expired.signal;
    const timer = setTimeout(() => {
      // Still receiving the body: Node's requestTimeout answers that with 408.
      if (!req.complete || res.headersSent) return;
      const seconds = Math.ceil(timeoutMs / 1000);
      const problem = new UnavailableError(
        'service_unavailable',
        `The request did not complete within ${seconds} seconds; retry in 1 seconds.`,
        1,
      );
      const reply = problemReply(problem, req.path, req.ctx.requestId)!;
      req.ctx.log.warn({ timeout_ms: timeoutMs }, 'request stopped at its deadline');
      res.setHeader('Connection', 'close');
      for (const [name, value] of Object.entries(reply.headers)) res.setHeader(name, value);
      res.status(reply.status).end(reply.body);
      expired.abort();
    }, timeoutMs);
    res.once('close', () => clearTimeout(timer));
    next();
  };
}
