// The Azure SDKs (Cosmos DB, Blob Storage) trace through @azure/core-tracing, which calls an
// "instrumenter"; this one makes their operations OpenTelemetry spans in the active context, so
// that each store call shows under the request that made it. Core-tracing's contexts and
// OpenTelemetry's have the same shape (getValue, setValue, deleteValue), so one is passed as the other.
import type { Instrumenter, TracingContext, TracingSpan } from '@azure/core-tracing';
import { type Context, context, propagation, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

const tracer = () => trace.getTracer('groundcheck.azure-sdk');

const kinds: Record<string, SpanKind> = {
  client: SpanKind.CLIENT,
  server: SpanKind.SERVER,
  producer: SpanKind.PRODUCER,
  consumer: SpanKind.CONSUMER,
  internal: SpanKind.INTERNAL,
};

function wrap(span: Span): TracingSpan {
  return {
    setStatus(status) {
      if (status.status === 'error')
        span.setStatus({ code: SpanStatusCode.ERROR, message: status.error instanceof Error ? status.error.message : undefined });
      else span.setStatus({ code: SpanStatusCode.OK });
    },
    setAttribute(name, value) {
      if (value !== undefined && value !== null) span.setAttribute(name, value as string | number | boolean);
    },
    end: () => span.end(),
    recordException: (exception) => span.recordException(exception),
    isRecording: () => span.isRecording(),
    addEvent: (name, options) => span.addEvent(name, options?.attributes as Record<string, string>, options?.startTime),
  };
}

export const azureSdkInstrumenter: Instrumenter = {
  startSpan(name, spanOptions) {
    const parent = (spanOptions.tracingContext as Context | undefined) ?? context.active();
    const span = tracer().startSpan(
      name,
      { kind: kinds[spanOptions.spanKind ?? 'internal'], attributes: spanOptions.spanAttributes as Record<string, string> },
      parent,
    );
    return { span: wrap(span), tracingContext: trace.setSpan(parent, span) as TracingContext };
  },
  withContext(tracingContext, callback, ...callbackArgs) {
    return context.with(tracingContext as Context, callback, undefined, ...callbackArgs);
  },
  parseTraceparentHeader(traceparent) {
    return propagation.extract(context.active(), { traceparent }) as TracingContext;
  },
  createRequestHeaders(tracingContext) {
    const headers: Record<string, string> = {};
    propagation.inject((tracingContext as Context | undefined) ?? context.active(), headers);
    return headers;
  },
};
