// A request never outlives HTTP_REQUEST_TIMEOUT_MS: at the deadline the caller gets 503 with
// Retry-After, the work is told to stop through its abort signal, and a retry with the same
// Idempotency-Key runs again (the key's lease ended with the 5xx). A handler stands in for work that
// does not end by itself: it waits for its signal.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Operation } from '../../src/routes/operation.js';
import { capturedLog } from '../support/captured-log.js';
import { startTestServer } from '../support/harness.js';
import { sampleValidateRequest, validateResultExample } from '../support/validate-stub.js';

test('a request still running at HTTP_REQUEST_TIMEOUT_MS answers 503, its work stops, and its key is free for a retry', async () => {
  const { log, lines } = capturedLog();
  const stops: string[] = [];
  let hang = true;
  const waitForStop =
    (name: string) =>
    (ctx: { abortSignal: AbortSignal }): Promise<never> =>
      new Promise((_, reject) =>
        ctx.abortSignal.addEventListener('abort', () => {
          stops.push(name);
          reject(ctx.abortSignal.reason);
        }),
      );
  const validate: Operation<'validate'> = async (_body, ctx) =>
    hang ? waitForStop('validate')(ctx) : (validateResultExample() as Awaited<ReturnType<Operation<'validate'>>>);
  const server = await startTestServer({
    log,
    // Long enough for the calls that do not wait to finish on a loaded machine.
    env: { HTTP_REQUEST_TIMEOUT_MS: '3000', HTTP_HEADERS_TIMEOUT_MS: '3000' },
    operations: { getStats: async (_body, ctx) => waitForStop('getStats')(ctx), validate },
  });
  try {
    const token = await server.login('acme', 'user');
    const stats = await server.call('/api/v1/stats', {}, { token });
    assert.equal(stats.status, 503, stats.text);
    assert.equal(stats.body.code, 'service_unavailable');
    assert.equal(stats.headers.get('retry-after'), '1');
    assert.match(stats.body.detail, /did not complete within 3 seconds/);

    const key = `deadline-${Date.now()}`;
    const first = await server.call('/api/v1/validate', sampleValidateRequest, { token, headers: { 'Idempotency-Key': key } });
    assert.equal(first.status, 503, first.text);
    for (let i = 0; i < 100 && stops.length < 2; i++) await sleep(20);
    assert.deepEqual(stops, ['getStats', 'validate'], 'each stopped work was told to stop');

    hang = false;
    const retry = await server.call('/api/v1/validate', sampleValidateRequest, { token, headers: { 'Idempotency-Key': key } });
    assert.equal(retry.status, 200, retry.text);
    assert.equal(retry.headers.get('idempotent-replayed'), null, 'the retry ran: the 503 was not stored');
    const errors = lines.filter((line) => line.level >= 50);
    assert.deepEqual(errors, [], 'a stopped request is not an unexpected error');
    assert.equal(lines.filter((line) => line.msg === 'request stopped at its deadline').length, 2);
  } finally {
    await server.close();
  }
});
