// Clients that go away while the entailment model scores their claims (the default verifier): the server
// lets those tasks finish instead of stopping their threads, since a thread stopped while onnxruntime runs
// on it aborts the whole process. Many validations are cut off at once, several times, as a load balancer
// or a load generator cuts its connections; the server must still answer afterwards.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { test } from 'node:test';
import { startTestServer } from '../support/harness.js';

const policy =
  'Leave policy. Full-time employees are entitled to 25 days of paid leave per calendar year. Up to 5 unused days may be carried over. '.repeat(
    8,
  );

/** A POST whose connection is cut after `afterMs`, answered or not; resolves when it is gone. */
function cutOff(url: string, body: string, afterMs: number): Promise<void> {
  return new Promise((resolve) => {
    const call = request(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } }, (reply) => reply.resume());
    call.on('error', () => undefined);
    call.on('close', () => resolve());
    call.end(body);
    setTimeout(() => call.destroy(), afterMs);
  });
}

test('validations cut off while the model scores them leave the server running', async () => {
  const server = await startTestServer();
  try {
    const body = {
      ...server.apiKeyBody('acme', 'user'),
      mode: 'validate',
      question: 'How many days of paid leave do full-time employees get, and can I carry any over?',
      chatbot_response:
        'Full-time employees get 30 days of paid leave per year, and up to five unused days can be carried into the next year.',
      inline_text: policy,
    };
    for (let round = 0; round < 10; round++) {
      // One connection per call, closed with it (no keep-alive to wait out when the server closes).
      const calls = Array.from({ length: 40 }, () => cutOff(`${server.url}/api/v1/validate`, JSON.stringify(body), 150 + (round % 5) * 40));
      await Promise.all(calls);
    }
    const after = await server.call('/api/v1/validate', body);
    assert.equal(after.status, 200, after.text);
    assert.equal(after.body.metadata.engine.verifier, 'onnx');
    assert.equal(after.body.claims[0].verifier, 'onnx');
  } finally {
    await server.close();
  }
});
