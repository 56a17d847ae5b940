// OpenTelemetry for the server: traces and metrics sent over OTLP/HTTP (JSON), configured by the
// standard OTEL_* variables and off unless an OTLP endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT, or
// the _TRACES_/_METRICS_ ones). The exporters read their endpoints, headers and timeouts themselves;
// OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES name the service; OTEL_TRACES_EXPORTER or
// OTEL_METRICS_EXPORTER `none` turns one signal off; OTEL_SDK_DISABLED=true turns both off. Must start
// before the server is built, so that instruments and the Azure SDKs' spans find the providers.

import { useInstrumenter } from '@azure/core-tracing';
import { metrics, trace } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { azureSdkInstrumenter } from './azure-instrumenter.js';

export interface Telemetry {
  traces: boolean;
  metrics: boolean;
  /** Sends what is buffered and stops. */
  shutdown(): Promise<void>;
}

const off: Telemetry = { traces: false, metrics: false, shutdown: async () => {} };

function signalOn(env: NodeJS.ProcessEnv, signal: 'TRACES' | 'METRICS'): boolean {
  if (env.OTEL_SDK_DISABLED?.toLowerCase() === 'true') return false;
  const exporter = env[`OTEL_${signal}_EXPORTER`]?.toLowerCase();
  if (exporter === 'none') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env[`OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`] || exporter === 'otlp');
}

export function startTelemetry(env: NodeJS.ProcessEnv = process.env): Telemetry {
  const tracesOn = signalOn(env, 'TRACES');
  const metricsOn = signalOn(env, 'METRICS');
  if (!tracesOn && !metricsOn) return off;
  const resource = resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || 'groundcheck' }).merge(
    detectResources({ detectors: [envDetector] }),
  );
  const stops: (() => Promise<void>)[] = [];
  if (tracesOn) {
    const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] });
    // Also registers the W3C trace-context propagator and the async-hooks context manager.
    provider.register();
    // Cosmos DB and Blob Storage calls become child spans of the request that makes them.
    useInstrumenter(azureSdkInstrumenter);
    stops.push(() => provider.shutdown());
  }
  if (metricsOn) {
    const interval = Number(env.OTEL_METRIC_EXPORT_INTERVAL) || 60_000;
    const provider = new MeterProvider({
      resource,
      readers: [new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter(), exportIntervalMillis: interval })],
    });
    metrics.setGlobalMeterProvider(provider);
    stops.push(() => provider.shutdown());
  }
  return {
    traces: tracesOn,
    metrics: metricsOn,
    async shutdown() {
      await Promise.allSettled(stops.map((stop) => stop()));
      trace.disable();
      metrics.disable();
    },
  };
}
