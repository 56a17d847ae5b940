// The model-backed verifiers through POST /api/v1/validate, chosen per tenant by the tenant file: the
// judge against a loopback stand-in of the chat-completions API (verdicts taken, generate written by
// the model, every failure a 200 with the checks' verdicts and a `verifier_unavailable` finding), the
// local entailment model from a folder the test builds, and the start-up refusal of a choice the
// deployment cannot run.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ValidationResult } from '@groundcheck/contract';
import { loadConfig } from '../../src/config.js';
import { buildContainer } from '../../src/container.js';
import { createLogger } from '../../src/logger.js';
import { shippedModelDir } from '../../src/verifiers/entailment/shipped-model.js';
import { writeFixture } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/harness.js';
import { apiError, type ChatStandIn, completion, startChatStandIn, verdict } from '../verifiers/support/chat-stand-in.js';
import { emptyDir, tinyModelDir } from '../verifiers/support/entailment-folders.js';

const policy =
  'Leave policy. Full-time employees are entitled to 25 days of paid leave per calendar year. Unused leave of up to 5 days may be carried over to the next year.';
const question = 'How many days of paid leave do full-time employees get?';
const supportedQuote = 'Full-time employees are entitled to 25 days of paid leave per calendar year';
const apiKey = 'sk-test-verifier-key-0123456789';

/** What the stand-in answers next, by what the judge asks. */
let reply: (kind: 'verdict' | 'answer') => ReturnType<typeof completion>;
let standIn: ChatStandIn;
let server: TestServer;

async function validate(body: Record<string, unknown>): Promise<ValidationResult> {
  const response = await server.call('/api/v1/validate', { ...server.apiKeyBody('acme', 'user'), question, inline_text: policy, ...body });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body as ValidationResult;
}

describe('the OpenAI-compatible judge', () => {
  before(async () => {
    standIn = await startChatStandIn((request) =>
      reply(request.body.response_format?.json_schema?.name === 'grounded_answer' ? 'answer' : 'verdict'),
    );
    const fixture = await writeFixture({
      // Every claim is in the band, so each one goes to the judge.
      // tiny chooses no verifier, and has the audit trail (and so the system card).
      overrides: {
        acme: { engine: { verifier: 'openai', judge_band: { low: 0, high: 1 } } },
        tiny: { features: { document_templates: false, audit_trail: true } },
      },
    });
    server = await startTestServer({
      fixture,
      env: { OPENAI_API_KEY: apiKey, OPENAI_BASE_URL: standIn.baseURL, OPENAI_MODEL: 'stand-in-model', JUDGE_TIMEOUT_MS: '5000' },
    });
  });
  after(async () => {
    await server?.close();
    await standIn?.close();
  });

  test('takes a verdict whose quote is in the sources, and says so in the claim and the metadata', async () => {
    reply = () => verdict('contradicted', supportedQuote, 'The policy gives 25 days.');
    const result = await validate({ mode: 'validate', chatbot_response: 'Full-time employees get 30 days of paid leave.' });
    assert.equal(result.claims.length, 1);
    const [claim] = result.claims;
    assert.equal(claim!.status, 'contradicted');
    assert.equal(claim!.verifier, 'openai');
    assert.deepEqual(
      claim!.evidence.map((e) => [e.source_id, policy.slice(e.start, e.end), e.relation]),
      [['src_1', supportedQuote, 'contradicts']],
    );
    assert.deepEqual(result.metadata.engine.verifier, 'openai');
    assert.equal(result.metadata.engine.verifier_model, 'stand-in-model');
    const finding = result.findings.find((f) => f.category === 'contradicted_claim');
    assert.match(finding!.description, /The policy gives 25 days\./);
    assert.equal(result.severity, 'high');
    // The judge read the claim and the policy, and nothing that names the tenant or its credentials.
    const sent = JSON.stringify(standIn.requests.at(-1)!.body);
    assert.match(sent, /30 days of paid leave/);
    assert.doesNotMatch(sent, /acme|gck_/);
  });

  test('a supported verdict clears a claim the checks could not place', async () => {
    reply = () => verdict('supported', supportedQuote);
    const result = await validate({ mode: 'validate', chatbot_response: 'Full-time staff receive 25 paid days off each year.' });
    assert.deepEqual(
      result.claims.map((c) => [c.status, c.verifier]),
      [['supported', 'openai']],
    );
    assert.equal(result.issue_count, 0);
  });

  for (const [name, answer, expected] of [
    ['a 500 from the endpoint', () => apiError(500, 'upstream failed'), /server_error/],
    ['malformed JSON in the reply', () => completion('{"status": "supported", '), /malformed_reply/],
    [
      'a quote that is not in the sources',
      () => verdict('supported', 'Employees get unlimited paid leave at any time they like'),
      /quote_not_in_sources/,
    ],
    ['a 429 with a Retry-After beyond the budget', () => apiError(429, 'slow down', { 'retry-after': '600' }), /rate_limited/],
  ] as const) {
    test(`${name}: the checks' verdicts stand, with a verifier_unavailable finding, and no 5xx`, async () => {
      reply = answer;
      const result = await validate({ mode: 'validate', chatbot_response: 'Full-time employees get 30 days of paid leave.' });
      assert.deepEqual(
        result.claims.map((c) => c.verifier),
        ['deterministic'],
      );
      const note = result.findings.find((f) => f.category === 'verifier_unavailable');
      assert.ok(note, JSON.stringify(result.findings));
      assert.equal(note.status, 'warning');
      assert.equal(note.severity, 'low');
      assert.match(note.description, expected);
      assert.ok(!JSON.stringify(result).includes(apiKey), 'the key never reaches a result');
    });
  }

  test('generate: the model writes the answer from the sources, and the answer is checked like any other', async () => {
    const written = 'Full-time employees are entitled to 25 days of paid leave per calendar year.';
    reply = (kind) =>
      kind === 'answer' ? completion(JSON.stringify({ answer: written, citations: ['src_1'] })) : verdict('supported', supportedQuote);
    const result = await validate({ mode: 'generate' });
    assert.equal(result.mode, 'generate');
    assert.equal(result.mode === 'generate' && result.answer, written);
    assert.deepEqual(
      result.claims.map((c) => [c.text, c.status, c.verifier]),
      // The claim is the sentence without its full stop.
      [[written.slice(0, -1), 'supported', 'openai']],
    );
  });

  test('generate: when the model cannot write, the engine writes the answer and says the judge was unavailable', async () => {
    reply = (kind) => (kind === 'answer' ? apiError(503, 'overloaded') : verdict('supported', supportedQuote));
    const result = await validate({ mode: 'generate' });
    assert.equal(result.mode, 'generate');
    assert.ok(result.mode === 'generate' && result.answer.length > 0);
    assert.ok(result.findings.some((f) => f.category === 'verifier_unavailable'));
  });

  test("a tenant without a verifier of its own takes the deployment's default, the shipped model", async () => {
    const response = await server.call('/api/v1/validate', {
      ...server.apiKeyBody('globex', 'user'),
      question,
      inline_text: policy,
      mode: 'validate',
      chatbot_response: 'Full-time employees get 30 days of paid leave.',
    });
    assert.equal(response.status, 200);
    const result = response.body as ValidationResult;
    assert.equal(result.metadata.engine.verifier, 'onnx');
    assert.deepEqual(
      result.claims.map((c) => c.verifier),
      ['onnx'],
    );
  });

  test("the system card names each tenant's verifier and says what leaves the deployment", async () => {
    const card = async (customerId: string) => {
      const reply = await server.call('/api/v1/system-card', server.apiKeyBody(customerId, 'admin'));
      assert.equal(reply.status, 200, reply.text);
      return reply.body.validation_method.verifier;
    };
    const judged = await card('acme');
    assert.deepEqual([judged.name, judged.model], ['openai', 'stand-in-model']);
    assert.match(judged.description, /leaves the deployment for the endpoint/);
    // tiny's file chooses no verifier: the deployment's default.
    const local = await card('tiny');
    assert.deepEqual([local.name, local.model], ['onnx', 'local']);
    assert.match(local.description, /No text leaves the deployment/);
  });
});

describe('the local entailment model', () => {
  test("the shipped model, or one in the operator's folder, adds its signal; a folder without one leaves the checks' verdicts with a finding", async () => {
    for (const [env, works] of [
      [{}, true],
      [{ ENGINE_MODEL_DIR: await tinyModelDir() }, true],
      [{ ENGINE_MODEL_DIR: await emptyDir() }, false],
    ] as const) {
      const fixture = await writeFixture({ overrides: { acme: { engine: { verifier: 'onnx' } } } });
      server = await startTestServer({ fixture, env });
      try {
        const result = await validate({ mode: 'validate', chatbot_response: 'Full-time employees get 25 days of paid leave per year.' });
        assert.equal(result.metadata.engine.verifier, 'onnx');
        const noted = result.findings.some((f) => f.category === 'verifier_unavailable');
        assert.equal(noted, !works, JSON.stringify(result.findings));
        assert.deepEqual(
          result.claims.map((c) => c.verifier),
          [works ? 'onnx' : 'deterministic'],
        );
      } finally {
        await server.close();
      }
    }
  });
});

describe('the checks alone', () => {
  test('a tenant file choosing none, or ENGINE_VERIFIER=none for every tenant, keeps the checks alone', async () => {
    for (const [overrides, env] of [
      [{ acme: { engine: { verifier: 'none' } } }, {}],
      [{}, { ENGINE_VERIFIER: 'none' }],
    ] as const) {
      const fixture = await writeFixture({ overrides });
      server = await startTestServer({ fixture, env });
      try {
        const result = await validate({ mode: 'validate', chatbot_response: 'Full-time employees get 30 days of paid leave.' });
        assert.equal(result.metadata.engine.verifier, 'none');
        const card = await server.call('/api/v1/system-card', server.apiKeyBody('acme', 'viewer'));
        assert.deepEqual(card.body.validation_method.verifier, {
          name: 'none',
          description: 'The checks alone decide each claim and give its score. No text leaves the deployment.',
        });
        assert.deepEqual(
          result.claims.map((c) => [c.verifier, c.status]),
          [['deterministic', 'contradicted']],
        );
      } finally {
        await server.close();
      }
    }
  });
});

describe('configuration', () => {
  test('a tenant that chooses a verifier the deployment does not offer stops the start, naming what to set', async () => {
    const fixture = await writeFixture({ overrides: { acme: { engine: { verifier: 'openai' } } } });
    const config = loadConfig({ TENANTS_FILE: fixture.file, LOG_LEVEL: 'silent', JWT_SECRET: 'a'.repeat(43) });
    await assert.rejects(buildContainer(config, createLogger('silent')), /acme.*OPENAI_API_KEY/);
  });

  test('ENGINE_VERIFIER must name a verifier, onnx by default; onnx without ENGINE_MODEL_DIR takes the shipped model', () => {
    assert.throws(() => loadConfig({ ENGINE_VERIFIER: 'gpt' }), /ENGINE_VERIFIER must be one of none, openai, onnx/);
    assert.equal(loadConfig({ ENGINE_VERIFIER: 'onnx' }).verifiers.modelDir, shippedModelDir);
    assert.equal(loadConfig({}).verifiers.defaultVerifier, 'onnx');
    assert.equal(loadConfig({ ENGINE_VERIFIER: 'none' }).verifiers.defaultVerifier, 'none');
    assert.throws(() => loadConfig({ ENGINE_VERIFIER: 'openai' }), /OPENAI_API_KEY/);
  });
});
