// The server's own spans and metrics. Instruments are looked up when first used, after
// startTelemetry has installed the providers; without telemetry they are OpenTelemetry's no-ops.
import { type Attributes, metrics, type ObservableGauge, trace } from '@opentelemetry/api';

export const tracer = () => trace.getTracer('groundcheck');
const meter = () => metrics.getMeter('groundcheck');

let made: ReturnType<typeof make> | null = null;

function make() {
  const m = meter();
  return {
    httpDuration: m.createHistogram('http.server.request.duration', { unit: 's', description: 'Duration of HTTP requests.' }),
    engineDuration: m.createHistogram('groundcheck.engine.duration', {
      unit: 's',
      description: 'Time the engine took for one request, queue wait included.',
    }),
    validations: m.createCounter('groundcheck.validations', {
      description: 'Validations recorded, by mode, confidence level and whether they found issues.',
    }),
    webhookDeliveries: m.createCounter('groundcheck.webhook.deliveries', { description: 'Webhook deliveries, by outcome.' }),
  };
}

export function instruments() {
  made ??= make();
  return made;
}

/** Reports the engine's queue (tasks waiting for a thread) as a gauge. */
export function observeEngineQueue(depth: () => number): ObservableGauge<Attributes> {
  const gauge = meter().createObservableGauge('groundcheck.engine.queue_depth', {
    description: 'Engine tasks waiting for a worker thread.',
  });
  gauge.addCallback((result) => result.observe(depth()));
  return gauge;
}
