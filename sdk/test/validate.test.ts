// `client.validate` against the real reference server on loopback, in each mode: the typed result per
// mode, a fix that validates clean, a generated answer drawn from the sources, safe retries under an
// Idempotency-Key, and the typed error for a request without sources.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { email, password } from '../../server/test/support/fixtures.js';
import { startTestServer, type TestServer } from '../../server/test/support/harness.js';
import { BadRequestError, createClient, type GroundcheckClient } from '../src/index.js';

const policy =
  'Travel policy. Economy class is required for flights under six hours. Business class is allowed for flights of six hours or more. Hotel costs are reimbursed up to 180 euros per night. Claims must be filed within 30 days of the trip.';
const question = 'How much does the company reimburse for a hotel night?';

let server: TestServer;
let client: GroundcheckClient;

before(async () => {
  server = await startTestServer();
  const { token } = await createClient({ baseUrl: server.url }).auth.login({
    email: email('acme', 'user'),
    password: password('acme', 'user'),
    customer_id: 'acme',
  });
  client = createClient({ baseUrl: server.url, token });
});
after(() => server.close());

describe('client.validate', () => {
  test('validate: the wrong figure is a contradicted claim located in the answer', async () => {
    const answer = 'Good question! Hotel costs are reimbursed up to 250 euros per night.';
    const result = await client.validate({ mode: 'validate', question, chatbot_response: answer, inline_text: policy });
    assert.equal(result.mode, 'validate');
    assert.match(result.validation_id, /^val_/);
    assert.match(result.lastResponse.requestId!, /^req_/);
    assert.ok(result.issue_count > 0);
    const contradicted = result.claims.filter((claim) => claim.status === 'contradicted');
    assert.equal(contradicted.length, 1, JSON.stringify(result.claims));
    const claim = contradicted[0]!;
    assert.equal(answer.slice(claim.start, claim.end), claim.text);
    assert.match(claim.text, /250 euros/);
    assert.ok(
      claim.evidence.some((evidence) => /180 euros/.test(evidence.text) && policy.slice(evidence.start, evidence.end) === evidence.text),
    );
    assert.equal(result.sources[0]!.kind, 'inline_text');
    assert.match(result.sources[0]!.sha256, /^[0-9a-f]{64}$/);
  });

  test('validate_and_fix: the corrected response validates without issues', async () => {
    const answer = 'Hotel costs are reimbursed up to 250 euros per night. Claims must be filed within 30 days of the trip.';
    const fixed = await client.validate({ mode: 'validate_and_fix', question, chatbot_response: answer, inline_text: policy });
    assert.equal(fixed.mode, 'validate_and_fix');
    if (fixed.mode !== 'validate_and_fix') return;
    assert.match(fixed.corrected_response, /180 euros/);
    assert.doesNotMatch(fixed.corrected_response, /250/);
    assert.ok(fixed.corrections.length >= 1);
    const again = await client.validate({
      mode: 'validate',
      question,
      chatbot_response: fixed.corrected_response,
      inline_text: policy,
    });
    assert.equal(again.issue_count, 0, JSON.stringify(again.findings));
  });

  test('generate: an answer drawn from the sources, or a plain statement that they do not answer', async () => {
    const generated = await client.validate({ mode: 'generate', question, inline_text: policy });
    assert.equal(generated.mode, 'generate');
    if (generated.mode !== 'generate') return;
    assert.match(generated.answer, /180 euros/);
    assert.equal(generated.issue_count, 0);
    const unanswered = await client.validate({ mode: 'generate', question: 'Who is the chief executive?', inline_text: policy });
    if (unanswered.mode !== 'generate') return assert.fail(unanswered.mode);
    assert.doesNotMatch(unanswered.answer, /euros|economy|business/i);
  });

  test('a retry under the same Idempotency-Key replays the first validation', async () => {
    const body = { mode: 'validate' as const, question, chatbot_response: 'Hotel nights: up to 180 euros.', inline_text: policy };
    const first = await client.validate(body, { idempotencyKey: 'sdk-validate-retry-0001' });
    const second = await client.validate(body, { idempotencyKey: 'sdk-validate-retry-0001' });
    assert.equal(second.validation_id, first.validation_id);
    const third = await client.validate(body);
    assert.notEqual(third.validation_id, first.validation_id);
  });

  test('a request without any source is a typed 400', async () => {
    const error = await client
      .validate({ mode: 'validate', question, chatbot_response: 'Up to 180 euros.' } as never)
      .then(() => assert.fail('accepted'))
      .catch((e: unknown) => e);
    assert.ok(error instanceof BadRequestError, String(error));
    assert.equal(error.status, 400);
  });
});
