// How the claim judge reaches its model and how much it may spend, read from the environment once at start-up.
// Errors name variables, never their values: a misplaced key must not end up in a log line.

export interface JudgeSettings {
  provider: 'openai' | 'azure';
  /** The model name, or for Azure the deployment name. */
  model: string;
  /** From the environment only; never logged, never in errors. */
  apiKey: string;
  /** An OpenAI-compatible base URL (local servers); for Azure, the resource endpoint. */
  baseURL?: string;
  /** Azure only. */
  apiVersion?: string;
  /** The whole budget for one request's judging. */
  timeoutMs: number;
  /** At most this many claims judged per request. */
  maxClaims: number;
  /** Per call. */
  maxOutputTokens: number;
  /** Per call, estimated as ceil(chars / 4); passages are cut to fit. */
  maxInputTokens: number;
  /** Concurrent calls per tenant. */
  concurrency: number;
  maxRetries: number;
}

/** Structured outputs (`json_schema`) arrived in this GA version. */
const DEFAULT_AZURE_API_VERSION = '2024-10-21';

const DEFAULTS = { maxOutputTokens: 300, maxInputTokens: 3000, maxRetries: 1 };

export function judgeSettingsFromEnv(env: Record<string, string | undefined>): JudgeSettings {
  const read = (name: string) => env[name]?.trim() || undefined;
  const required = (name: string) => {
    const value = read(name);
    if (!value) throw new Error(`The claim judge needs ${name}, which is missing or empty`);
    return value;
  };
  const integer = (name: string, fallback: number, min: number, max: number) => {
    const text = read(name);
    if (text === undefined) return fallback;
    const value = Number(text);
    if (!/^\d+$/.test(text) || value < min || value > max) throw new Error(`${name} must be a whole number from ${min} to ${max}`);
    return value;
  };
  const url = (name: string) => {
    const value = read(name);
    if (value !== undefined && !(URL.canParse(value) && /^https?:$/.test(new URL(value).protocol))) {
      throw new Error(`${name} must be an http(s) URL`);
    }
    return value;
  };

  const budgets = {
    ...DEFAULTS,
    timeoutMs: integer('JUDGE_TIMEOUT_MS', 8000, 100, 120_000),
    maxClaims: integer('JUDGE_MAX_CLAIMS', 8, 1, 64),
    concurrency: integer('JUDGE_CONCURRENCY', 4, 1, 64),
  };
  const endpoint = url('AZURE_OPENAI_ENDPOINT');
  if (endpoint) {
    return {
      provider: 'azure',
      baseURL: endpoint,
      apiKey: required('AZURE_OPENAI_API_KEY'),
      model: required('AZURE_OPENAI_DEPLOYMENT'),
      apiVersion: read('OPENAI_API_VERSION') ?? DEFAULT_AZURE_API_VERSION,
      ...budgets,
    };
  }
  const baseURL = url('OPENAI_BASE_URL');
  return {
    provider: 'openai',
    apiKey: required('OPENAI_API_KEY'),
    model: read('OPENAI_MODEL') ?? 'gpt-4o-mini',
    ...(baseURL ? { baseURL } : {}),
    ...budgets,
  };
}
