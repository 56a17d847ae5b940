// Gives every request an id (echoed in X-Request-Id and in every log line) and logs its outcome.
import type { RequestHandler } from 'express';
import type { Clock } from '../lib/clock.js';
import { newId } from '../lib/ids.js';
import type { Logger } from '../logger.js';

const acceptableId = /^[A-Za-z0-9._:-]{8,128}$/;
/** Operations a platform calls every few seconds: their successes would drown the log, so they are logged at debug. */
const probes = new Set(['getHealth', 'getReadiness']);

export function requestContext(log: Logger, clock: Clock): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get('x-request-id');
    const requestId = incoming && acceptableId.test(incoming) ? incoming : newId('req', clock.now().getTime());
    const started = process.hrtime.bigint();
    req.ctx = { requestId, log: log.child({ request_id: requestId }), clock };
    res.setHeader('X-Request-Id', requestId);
    res.on('finish', () => {
      const probe = probes.has(req.ctx.operation?.operationId ?? '') && res.statusCode < 400;
      req.ctx.log[probe ? 'debug' : 'info'](
        {
          method: req.method,
          path: req.path,
          status: res.statusCode,
          operation: req.ctx.operation?.operationId,
          customer_id: req.ctx.principal?.tenant.customerId,
          duration_ms: Number((process.hrtime.bigint() - started) / 1_000_000n),
        },
        'request completed',
      );
    });
    next();
  };
}
