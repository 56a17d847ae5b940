import assert from 'node:assert/strict';
import { test } from 'node:test';
import { judgeSettingsFromEnv } from '../../src/verifiers/judge/judge-settings.js';

const KEY = 'sk-settings-Hq4Lm9Tz2Wx7';

/** The thrown message, which must name the variable and never carry a value. */
function messageOf(env: Record<string, string | undefined>): string {
  try {
    judgeSettingsFromEnv(env);
  } catch (error) {
    assert.ok(error instanceof Error);
    return error.message;
  }
  assert.fail('the settings were accepted');
}

test('OpenAI with nothing but a key takes the defaults', () => {
  assert.deepEqual(judgeSettingsFromEnv({ OPENAI_API_KEY: KEY }), {
    provider: 'openai',
    apiKey: KEY,
    model: 'gpt-4o-mini',
    timeoutMs: 8000,
    maxClaims: 8,
    maxOutputTokens: 300,
    maxInputTokens: 3000,
    concurrency: 4,
    maxRetries: 1,
  });
});

test('a local OpenAI-compatible server: base URL, model and budgets', () => {
  const settings = judgeSettingsFromEnv({
    OPENAI_API_KEY: 'local',
    OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
    OPENAI_MODEL: ' llama3.1 ',
    JUDGE_TIMEOUT_MS: '15000',
    JUDGE_MAX_CLAIMS: '3',
    JUDGE_CONCURRENCY: '2',
  });
  assert.equal(settings.provider, 'openai');
  assert.equal(settings.baseURL, 'http://127.0.0.1:11434/v1');
  assert.equal(settings.model, 'llama3.1');
  assert.deepEqual([settings.timeoutMs, settings.maxClaims, settings.concurrency], [15000, 3, 2]);
});

test('Azure when an endpoint is set: deployment as model, api-version defaulted', () => {
  const env = { AZURE_OPENAI_ENDPOINT: 'https://res.openai.azure.com/', AZURE_OPENAI_API_KEY: KEY, AZURE_OPENAI_DEPLOYMENT: 'judge' };
  const settings = judgeSettingsFromEnv({ ...env, OPENAI_API_KEY: 'ignored' });
  assert.equal(settings.provider, 'azure');
  assert.equal(settings.baseURL, 'https://res.openai.azure.com/');
  assert.equal(settings.apiKey, KEY);
  assert.equal(settings.model, 'judge');
  assert.equal(settings.apiVersion, '2024-10-21');
  assert.equal(judgeSettingsFromEnv({ ...env, OPENAI_API_VERSION: '2025-01-01-preview' }).apiVersion, '2025-01-01-preview');
});

test('a missing key or deployment is named, and empty counts as missing', () => {
  assert.match(messageOf({}), /OPENAI_API_KEY/);
  assert.match(messageOf({ OPENAI_API_KEY: '  ' }), /OPENAI_API_KEY/);
  assert.match(
    messageOf({ AZURE_OPENAI_ENDPOINT: 'https://res.openai.azure.com', AZURE_OPENAI_DEPLOYMENT: 'judge' }),
    /AZURE_OPENAI_API_KEY/,
  );
  assert.match(messageOf({ AZURE_OPENAI_ENDPOINT: 'https://res.openai.azure.com', AZURE_OPENAI_API_KEY: KEY }), /AZURE_OPENAI_DEPLOYMENT/);
});

test('numbers must be whole and within bounds; errors name the variable, not the value', () => {
  for (const [name, value] of [
    ['JUDGE_TIMEOUT_MS', '0'],
    ['JUDGE_TIMEOUT_MS', '9999999'],
    ['JUDGE_TIMEOUT_MS', '1e4'],
    ['JUDGE_MAX_CLAIMS', '-1'],
    ['JUDGE_MAX_CLAIMS', '2.5'],
    ['JUDGE_CONCURRENCY', 'many'],
    ['JUDGE_CONCURRENCY', '1000'],
  ] as const) {
    const message = messageOf({ OPENAI_API_KEY: KEY, [name]: value });
    assert.match(message, new RegExp(`^${name} must be a whole number`));
    assert.ok(!message.includes(KEY));
  }
});

test('base URLs must be http(s)', () => {
  assert.match(messageOf({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: 'not a url' }), /OPENAI_BASE_URL/);
  assert.match(messageOf({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: 'file:///etc/passwd' }), /OPENAI_BASE_URL/);
  assert.match(messageOf({ AZURE_OPENAI_ENDPOINT: 'ftp://res', AZURE_OPENAI_API_KEY: KEY }), /AZURE_OPENAI_ENDPOINT/);
});

test('no error carries the key', () => {
  const message = messageOf({ AZURE_OPENAI_ENDPOINT: 'https://res.openai.azure.com', AZURE_OPENAI_API_KEY: KEY });
  assert.ok(!message.includes(KEY));
});
