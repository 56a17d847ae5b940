// A validation whose client goes away: its engine task is stopped (or its result dropped), nothing is
// recorded, and the log says so at debug, not as an error with a stack. The engine is held until the
// client has gone, so the test does not depend on timing.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EnginePool } from '../../src/services/validation/engine-pool.js';
import { capturedLog } from '../support/captured-log.js';
import { startTestServer } from '../support/harness.js';
import { openRaw } from '../support/raw-http.js';

test('a client that aborts a validation stops its work, leaves no record and no error in the log', async () => {
  const { log, lines } = capturedLog();
  const server = await startTestServer({ log });
  const engine: EnginePool = (server.services.validation as any).deps.engine;
  const run = engine.run.bind(engine);
  const outcomes: string[] = [];
  // First request: the task starts only once the client has gone, with its (aborted) signal: the pool
  // refuses it. Second: the engine ignores the signal and answers anyway: the result must not be recorded.
  let ignoreSignal = false;
  engine.run = (async (mode, request, signal) => {
    if (!signal!.aborted) await once(signal!, 'abort');
    try {
      const result = await run(mode, request, ignoreSignal ? undefined : signal);
      outcomes.push('answered');
      return result;
    } catch (error) {
      outcomes.push((error as Error).name);
      throw error;
    }
  }) as EnginePool['run'];
  try {
    const json = JSON.stringify({
      ...server.apiKeyBody('acme', 'user'),
      mode: 'validate',
      question: 'When does the ferry leave?',
      chatbot_response: 'The ferry leaves three times a day from the south pier.',
      inline_text: 'The ferry to the outer islands leaves twice a day from the north pier.',
    });
    for (const ignore of [false, true]) {
      ignoreSignal = ignore;
      const socket = await openRaw(
        server.url,
        `POST /api/v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`,
      );
      await sleep(200);
      socket.destroy();
      const deadline = Date.now() + 5000;
      while (outcomes.length < (ignore ? 2 : 1) && Date.now() < deadline) await sleep(20);
    }
    assert.deepEqual(outcomes, ['AbortError', 'answered']);
    await sleep(200);
    const history = await server.call('/api/v1/history', { ...server.apiKeyBody('acme', 'admin') });
    assert.equal(history.status, 200, history.text);
    assert.deepEqual(history.body.data, [], 'nothing was recorded for the aborted validations');
    assert.equal(lines.filter((line) => line.level >= 50).length, 0, JSON.stringify(lines.filter((line) => line.level >= 50)));
    assert.equal(lines.filter((line) => line.level === 20 && /client aborted/.test(line.msg)).length, 2, JSON.stringify(lines));
  } finally {
    engine.run = run;
    await server.close();
  }
});
