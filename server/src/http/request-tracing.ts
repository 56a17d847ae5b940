// Gives every request an id (echoed in X-Request-Id and in every log line) and the start of its
// context (`req.ctx`), a server span (its parent from an incoming `traceparent`), and logs and
// measures its outcome.
import { context, propagation, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Request, RequestHandler, Response } from 'express';
import type { Clock } from '../lib/clock.js';
import { newId } from '../lib/ids.js';
import type { Logger } from '../logger.js';
import { instruments, tracer } from '../telemetry/instruments.js';

const acceptableId = /^[A-Za-z0-9._:-]{8,128}$/;
/** Operations a platform calls every few seconds: their successes would drown the log, so they are logged at debug. */
const probes = new Set(['getHealth', 'getReadiness']);

export function requestTracing(log: Logger, clock: Clock): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get('x-request-id');
    const requestId = incoming && acceptableId.test(incoming) ? incoming : newId('req', clock.now().getTime());
    const started = process.hrtime.bigint();
    req.ctx = { requestId, log: log.child({ request_id: requestId }), clock };
    res.setHeader('X-Request-Id', requestId);
    const parent = propagation.extract(context.active(), req.headers);
    const span = tracer().startSpan(req.method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method } }, parent);
    res.on('finish', () => {
      const route = req.ctx.operation?.pathTemplate;
      endSpan(span, req, res, requestId);
      instruments().httpDuration.record(Number(process.hrtime.bigint() - started) / 1e9, {
        'http.request.method': req.method,
        'http.response.status_code': res.statusCode,
        ...(route ? { 'http.route': route } : {}),
      });
      logCompletion(req, res, started);
    });
    // Everything the request does runs in its span's context, events of its streams included.
    const active = trace.setSpan(parent, span);
    context.bind(active, req);
    context.bind(active, res);
    context.with(active, next);
  };
}

function endSpan(span: Span, req: Request, res: Response, requestId: string): void {
  const operation = req.ctx.operation;
  // Named after the route template, never the concrete path (ids stay out of span names).
  const route = operation?.pathTemplate;
  if (route) span.updateName(`${req.method} ${route}`);
  span.setAttributes({
    'http.response.status_code': res.statusCode,
    ...(route ? { 'http.route': route, 'groundcheck.operation': operation.operationId } : {}),
    ...(req.ctx.principal ? { 'groundcheck.customer_id': req.ctx.principal.tenant.customerId } : {}),
    'groundcheck.request_id': requestId,
  });
  if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

function logCompletion(req: Request, res: Response, started: bigint): void {
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
}
