// OpenTelemetry through its real interface: the server started as `npm start` starts it, with the
// standard OTEL_* variables pointing at a loopback OTLP/HTTP receiver, sends spans (the request, the
// engine, Cosmos DB calls, the webhook's outbound call, one trace) and metrics (validations by
// outcome, engine time and queue, webhook deliveries, request durations). Without those variables
// nothing is sent.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { writeFixture } from '../support/fixtures.js';
import { startServerProcess } from '../support/server-process.js';

interface Received {
  path: string;
  body: Record<string, unknown>;
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

function startServer(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  return startServerProcess({ NODE_ENV: 'production', LOG_LEVEL: 'warn', SHUTDOWN_DRAIN_MS: '0', ...env });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Every span of the received trace exports, flattened. */
function spansOf(received: Received[]) {
  return received
    .filter((r) => r.path === '/v1/traces')
    .flatMap((r) =>
      (r.body.resourceSpans as { scopeSpans: { spans: Record<string, unknown>[] }[] }[]).flatMap((rs) =>
        rs.scopeSpans.flatMap((ss) => ss.spans),
      ),
    );
}

function metricNamesOf(received: Received[]): Set<string> {
  return new Set(
    received
      .filter((r) => r.path === '/v1/metrics')
      .flatMap((r) =>
        (r.body.resourceMetrics as { scopeMetrics: { metrics: { name: string }[] }[] }[]).flatMap((rm) =>
          rm.scopeMetrics.flatMap((sm) => sm.metrics.map((m) => m.name)),
        ),
      ),
  );
}

function attribute(span: Record<string, unknown>, key: string): unknown {
  const found = (span.attributes as { key: string; value: Record<string, unknown> }[]).find((a) => a.key === key);
  return found ? Object.values(found.value)[0] : undefined;
}

describe('OpenTelemetry export', () => {
  const received: Received[] = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString() || '{}') });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const webhooks: string[] = [];
  const webhookReceiver = createServer((req, res) => {
    webhooks.push(req.url ?? '');
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  let otlp: string;
  let hook: string;
  before(async () => {
    otlp = await listen(receiver);
    hook = await listen(webhookReceiver);
  });
  after(async () => {
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await new Promise<void>((resolve) => webhookReceiver.close(() => resolve()));
  });

  it('sends the spans of a validation as one trace, and the metrics, to the OTLP endpoint', async () => {
    const fixture = await writeFixture({
      overrides: {
        acme: {
          outbound: { allow: ['127.0.0.1'] },
          webhook: { enabled: true, url: `${hook}/findings`, include_successful: true },
        },
      },
    });
    const { url, child } = await startServer({
      TENANTS_FILE: fixture.file,
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp,
      OTEL_SERVICE_NAME: 'groundcheck-under-test',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_METRIC_EXPORT_INTERVAL: '300',
    });
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    try {
      const reply = await fetch(`${url}/api/v1/validate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
        body: JSON.stringify({
          customer_id: 'acme',
          api_key: fixture.apiKeys.acme!.user,
          mode: 'validate',
          question: 'How long is the warranty?',
          chatbot_response: 'The warranty lasts five years.',
          inline_text: 'Every appliance carries a two-year warranty.',
        }),
      });
      assert.equal(reply.status, 200, await reply.text());
      // Readiness asks Blob Storage, whose SDK traces through the instrumenter.
      assert.equal((await fetch(`${url}/readyz`)).status, 200);
      for (let i = 0; i < 100 && (webhooks.length === 0 || !metricNamesOf(received).has('groundcheck.webhook.deliveries')); i++)
        await sleep(100);
      for (let i = 0; i < 100 && !spansOf(received).some((s) => s.name === 'POST /api/v1/validate'); i++) await sleep(100);
    } finally {
      await stop(child);
    }
    const spans = spansOf(received);
    const request = spans.find((s) => s.name === 'POST /api/v1/validate');
    assert.ok(request, `a server span for the request among ${spans.map((s) => s.name).join(', ')}`);
    assert.equal(request.traceId, traceId, "it continues the caller's trace");
    assert.equal(attribute(request, 'http.response.status_code'), 200);
    assert.equal(attribute(request, 'groundcheck.customer_id'), 'acme');
    const sameTrace = spans.filter((s) => s.traceId === request.traceId);
    assert.ok(
      sameTrace.some((s) => s.name === 'engine validate'),
      'the engine is a span of the request',
    );
    const storeCalls = sameTrace.filter((s) => attribute(s, 'db.system.name') === 'azure.cosmosdb');
    assert.ok(
      storeCalls.some((s) => s.name === 'batch history'),
      `the record's batch is a span of the request: ${sameTrace.map((s) => s.name).join(', ')}`,
    );
    assert.ok(
      spans.some((s) => s.name === 'POST' && attribute(s, 'server.address') === '127.0.0.1'),
      'the webhook delivery is a client span',
    );
    const readiness = spans.find((s) => s.name === 'GET /readyz');
    assert.ok(
      spans.some((s) => s.traceId === readiness?.traceId && attribute(s, 'az.namespace') === 'Microsoft.Storage'),
      `Blob Storage calls are spans of the request: ${spans.map((s) => s.name).join(', ')}`,
    );
    assert.equal(webhooks.length, 1);
    const names = metricNamesOf(received);
    for (const name of [
      'groundcheck.validations',
      'groundcheck.engine.duration',
      'groundcheck.engine.queue_depth',
      'groundcheck.webhook.deliveries',
      'http.server.request.duration',
    ]) {
      assert.ok(names.has(name), `metric ${name} among ${[...names].join(', ')}`);
    }
    const service = (received.find((r) => r.path === '/v1/traces')!.body.resourceSpans as { resource: Record<string, unknown> }[])[0]!
      .resource;
    assert.equal(attribute(service, 'service.name'), 'groundcheck-under-test');
    // Secrets stay out of telemetry.
    assert.doesNotMatch(JSON.stringify(received), new RegExp(fixture.apiKeys.acme!.user));
  });

  it('sends nothing without an OTLP endpoint', async () => {
    const before = received.length;
    const fixture = await writeFixture();
    const { url, child } = await startServer({ TENANTS_FILE: fixture.file });
    try {
      assert.equal((await fetch(`${url}/healthz`)).status, 200);
      await sleep(500);
    } finally {
      await stop(child);
    }
    assert.equal(received.length, before);
  });
});
