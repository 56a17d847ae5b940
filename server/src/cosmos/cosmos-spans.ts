// Every network request @azure/cosmos makes becomes an OpenTelemetry client span under the request
// that caused it (the SDK's own tracing covers only token requests): the operation, the container
// and the status, never the query text, the partition key's value or the item.
import type { Plugin, PluginConfig } from '@azure/cosmos';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { tracer } from '../telemetry/instruments.js';

const spanOf: Plugin<unknown> = (request, _diagnosticNode, next) => {
  const container = /\/colls\/([^/]+)/.exec(request.path ?? '')?.[1];
  const operation = String(request.operationType ?? request.method).toLowerCase();
  return tracer().startActiveSpan(
    container ? `${operation} ${container}` : operation,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'db.system.name': 'azure.cosmosdb',
        'db.operation.name': operation,
        ...(container ? { 'db.collection.name': container } : {}),
      },
    },
    async (span) => {
      try {
        const response = await next(request);
        span.setAttribute('db.response.status_code', String(response.code ?? 200));
        return response;
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (code !== undefined) span.setAttribute('db.response.status_code', String(code));
        // A missing item or a lost ETag race is an answer the server handles, not a failed call.
        if (typeof code !== 'number' || code >= 500 || code === 429) span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    },
  );
};

export const cosmosSpans: PluginConfig = { on: 'request', plugin: spanOf };
