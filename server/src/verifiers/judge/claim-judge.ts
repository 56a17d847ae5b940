// Asks an OpenAI-compatible model about the claims the deterministic engine left uncertain. All it may spend is
// bounded (claims, tokens, one deadline, calls in flight per tenant) and every way it can fail ends as a reason on
// the claim, never as a thrown error, so the caller simply keeps its own verdict. Nothing from the provider's
// errors is passed on: they may echo the key.
import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, AzureOpenAI, type ClientOptions } from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import {
  answerPrompt,
  type JudgeStatus,
  judgePrompt,
  type Passage,
  type Prompt,
  parseAnswerReply,
  parseJudgeReply,
} from './judge-prompt.js';
import type { JudgeSettings } from './judge-settings.js';
import { type QuoteLocation, quoteFinder } from './quote-check.js';
import { createTenantSemaphore, QueueFullError } from './tenant-concurrency.js';

export type { JudgeStatus } from './judge-prompt.js';
export type { JudgeSettings } from './judge-settings.js';

export interface ClaimToJudge {
  index: number;
  text: string;
  /** Best first: when the token budget is short, the last ones are cut. */
  passages: Passage[];
}

export interface JudgeInput {
  tenantId: string;
  question: string;
  claims: ClaimToJudge[];
  /** Where quotes are looked up; verdict offsets index into these texts. */
  sources: Passage[];
}

export interface JudgeVerdict {
  index: number;
  status: JudgeStatus;
  reason: string;
  quote: QuoteLocation | null;
}

export type JudgeFailureReason =
  | 'timeout'
  | 'rate_limited'
  | 'server_error'
  | 'malformed_reply'
  | 'quote_not_in_sources'
  | 'over_budget'
  | 'refused'
  | 'connection';

export interface JudgeFailure {
  index: number;
  reason: JudgeFailureReason;
}

export interface JudgeUsage {
  /** Requests sent, retries included. */
  calls: number;
  /** As the provider reports them, or estimated when it does not; only for replies that arrived. */
  inputTokens: number;
  outputTokens: number;
  ms: number;
}

export interface JudgeOutcome {
  verdicts: JudgeVerdict[];
  failures: JudgeFailure[];
  usage: JudgeUsage;
}

export interface AnswerInput {
  tenantId: string;
  question: string;
  passages: Passage[];
}

export type AnswerOutcome =
  | { answer: string; citations: { source_id: string }[]; usage: JudgeUsage }
  | { failure: JudgeFailureReason; usage: JudgeUsage };

export interface ClaimJudgeDeps {
  /** For instance the server's guarded outbound fetch. */
  fetch?: ClientOptions['fetch'];
}

export interface ClaimJudge {
  /** Never rejects: every claim ends in `verdicts` or `failures`. */
  judgeClaims(input: JudgeInput, signal?: AbortSignal): Promise<JudgeOutcome>;
  /** An answer written only from the passages; the caller validates it like any other. */
  writeAnswer(input: AnswerInput, signal?: AbortSignal): Promise<AnswerOutcome>;
}

/** Waiting calls allowed per concurrent slot before a tenant's further calls are turned away. */
const QUEUE_PER_SLOT = 16;
const FIRST_BACKOFF_MS = 200;
const CHARS_PER_TOKEN = 4;

function createClient(settings: JudgeSettings, fetch: ClientOptions['fetch']): OpenAI {
  // Every option the SDK would otherwise read from process.env is given, so the settings alone decide.
  const common = {
    apiKey: settings.apiKey,
    organization: null,
    project: null,
    // Retries are ours: the SDK's would sleep through any Retry-After, past the deadline.
    maxRetries: 0,
    logLevel: 'off' as const,
    ...(fetch && { fetch }),
  };
  if (settings.provider === 'openai') return new OpenAI({ ...common, baseURL: settings.baseURL ?? 'https://api.openai.com/v1' });
  if (!settings.baseURL || !settings.apiVersion) throw new Error('Azure OpenAI settings need baseURL (the endpoint) and apiVersion');
  return new AzureOpenAI({
    ...common,
    baseURL: `${settings.baseURL.replace(/\/+$/, '')}/openai`,
    apiVersion: settings.apiVersion,
    deployment: settings.model,
  });
}

/** One deadline for everything a request asks of the model, which the caller's own signal may bring forward. */
function startBudget(timeoutMs: number, caller: AbortSignal | undefined, listeners: number) {
  const started = performance.now();
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  const usage: JudgeUsage = { calls: 0, inputTokens: 0, outputTokens: 0, ms: 0 };
  const signal = caller ? AbortSignal.any([deadline.signal, caller]) : deadline.signal;
  // Every call listens to this one signal, and the SDK keeps its listener until the signal is dropped: a full
  // request is not a leak, so Node should not warn of one.
  setMaxListeners(listeners, signal);
  return {
    signal,
    remaining: () => timeoutMs - (performance.now() - started),
    usage,
    /** Stops the clock and returns the usage. */
    finish(): JudgeUsage {
      clearTimeout(timer);
      usage.ms = Math.round(performance.now() - started);
      return usage;
    },
  };
}

type Budget = ReturnType<typeof startBudget>;

/** Settles with the promise, or rejects when the signal aborts first, whatever the promise's own fetch does. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason);
    if (signal.aborted) abort();
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

/** The wait a 429 or 503 asks for, from `retry-after-ms` (Azure, OpenAI) or `Retry-After` (seconds or a date). */
function retryAfterMs(headers: Headers | undefined): number | undefined {
  const milliseconds = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (milliseconds >= 0) return milliseconds;
  const value = headers?.get('retry-after')?.trim();
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

interface Classified {
  reason: JudgeFailureReason;
  retryable: boolean;
  headers?: Headers;
}

function classify(error: unknown, signal: AbortSignal): Classified {
  if (signal.aborted || error instanceof APIConnectionTimeoutError) return { reason: 'timeout', retryable: false };
  if (error instanceof QueueFullError) return { reason: 'rate_limited', retryable: false };
  if (error instanceof APIConnectionError) return { reason: 'connection', retryable: true };
  if (error instanceof APIError) {
    const headers = error.headers;
    // An exhausted quota also answers 429, but no wait within a request will refill it.
    if (error.status === 429) return { reason: 'rate_limited', retryable: error.code !== 'insufficient_quota', headers };
    if (error.status === 408 || (error.status ?? 0) >= 500) return { reason: 'server_error', retryable: true, headers };
    // Azure turns away a prompt its content filter flags with a 400 rather than a refusal.
    if (error.code === 'content_filter') return { reason: 'refused', retryable: false };
    // Any other 4xx (bad key, unknown model, unsupported parameter) is the endpoint's to fix, not ours to retry.
    return { reason: 'server_error', retryable: false };
  }
  // A 200 whose body is not JSON.
  if (error instanceof SyntaxError) return { reason: 'malformed_reply', retryable: false };
  return { reason: 'connection', retryable: false };
}

function countTokens(usage: JudgeUsage, reply: unknown, prompt: Prompt) {
  const reported = (reply as { usage?: { prompt_tokens?: number; completion_tokens?: number } } | null)?.usage;
  const content = (reply as { choices?: { message?: { content?: unknown } }[] } | null)?.choices?.[0]?.message?.content;
  usage.inputTokens += reported?.prompt_tokens ?? prompt.inputTokens;
  usage.outputTokens += reported?.completion_tokens ?? Math.ceil(String(content ?? '').length / CHARS_PER_TOKEN);
}

export function createClaimJudge(settings: JudgeSettings, deps: ClaimJudgeDeps = {}): ClaimJudge {
  const client = createClient(settings, deps.fetch);
  const lanes = createTenantSemaphore(settings.concurrency, settings.concurrency * QUEUE_PER_SLOT);
  // Per claim: the SDK's listener for each attempt, the wait for a slot, the wait before a retry, our race.
  const listeners = settings.maxClaims * (settings.maxRetries + 4);
  // OpenAI's own API and Azure take `max_completion_tokens` (reasoning models refuse `max_tokens`); local servers
  // have long understood `max_tokens`, not all of them the newer name.
  const outputLimit =
    settings.provider === 'azure' || !settings.baseURL
      ? { max_completion_tokens: settings.maxOutputTokens }
      : { max_tokens: settings.maxOutputTokens };

  const request = (prompt: Prompt): ChatCompletionCreateParamsNonStreaming => ({
    model: settings.model,
    messages: prompt.messages,
    response_format: prompt.format,
    temperature: 0,
    ...outputLimit,
  });

  /** One call to the endpoint, in the tenant's lane, counted against the budget. Throws what the call throws. */
  async function attemptOnce(tenantId: string, prompt: Prompt, budget: Budget): Promise<unknown> {
    const { signal } = budget;
    const call = lanes.run(tenantId, signal, () => {
      budget.usage.calls++;
      return client.chat.completions.create(request(prompt), { signal });
    });
    const reply: unknown = await untilAborted(call, signal);
    countTokens(budget.usage, reply, prompt);
    return reply;
  }

  /** After a failed attempt: why to give up now, or undefined once the wait before the next attempt is over. */
  async function waitToRetry(error: unknown, attempt: number, budget: Budget): Promise<JudgeFailureReason | undefined> {
    const { signal } = budget;
    const { reason, retryable, headers } = classify(error, signal);
    if (!retryable || attempt >= settings.maxRetries) return reason;
    const wait = retryAfterMs(headers) ?? FIRST_BACKOFF_MS * 2 ** attempt;
    // A wait that would outlast the budget is not worth starting: fail now and let the caller move on.
    if (wait >= budget.remaining()) return reason;
    try {
      await sleep(wait, undefined, { signal });
    } catch {
      return 'timeout';
    }
    return undefined;
  }

  /** One completion, retried within the budget: the parsed body, or why there is none. */
  async function complete(tenantId: string, prompt: Prompt, budget: Budget): Promise<{ reply: unknown } | { failure: JudgeFailureReason }> {
    for (let attempt = 0; ; attempt++) {
      try {
        return { reply: await attemptOnce(tenantId, prompt, budget) };
      } catch (error) {
        const failure = await waitToRetry(error, attempt, budget);
        if (failure) return { failure };
      }
    }
  }

  async function judgeOne(input: JudgeInput, claim: ClaimToJudge, budget: Budget, find: ReturnType<typeof quoteFinder>) {
    const failure = (reason: JudgeFailureReason): JudgeFailure => ({ index: claim.index, reason });
    const prompt = judgePrompt(input.question, claim.text, claim.passages, settings.maxInputTokens);
    if (!prompt) return failure('over_budget');
    const result = await complete(input.tenantId, prompt, budget);
    if ('failure' in result) return failure(result.failure);
    const reply = parseJudgeReply(result.reply);
    if (typeof reply === 'string') return failure(reply);
    const verdict = (quote: QuoteLocation | null): JudgeVerdict => ({
      index: claim.index,
      status: reply.status,
      reason: reply.reason,
      quote,
    });
    if (reply.status === 'unsupported') return verdict(null);
    const quote = find(reply.evidence_quote);
    return quote ? verdict(quote) : failure('quote_not_in_sources');
  }

  async function answer(input: AnswerInput, budget: Budget) {
    const prompt = answerPrompt(input.question, input.passages, settings.maxInputTokens);
    if (!prompt) return 'over_budget';
    const result = await complete(input.tenantId, prompt, budget);
    return 'failure' in result ? result.failure : parseAnswerReply(result.reply, prompt.passages);
  }

  return {
    async judgeClaims(input, signal) {
      const budget = startBudget(settings.timeoutMs, signal, listeners);
      const find = quoteFinder(input.sources);
      const results = await Promise.all(input.claims.slice(0, settings.maxClaims).map((claim) => judgeOne(input, claim, budget, find)));
      const skipped = input.claims.slice(settings.maxClaims).map((claim): JudgeFailure => ({ index: claim.index, reason: 'over_budget' }));
      return {
        verdicts: results.filter((result): result is JudgeVerdict => 'status' in result),
        failures: [...results.filter((result): result is JudgeFailure => !('status' in result)), ...skipped],
        usage: budget.finish(),
      };
    },

    async writeAnswer(input, signal) {
      const budget = startBudget(settings.timeoutMs, signal, listeners);
      const reply = await answer(input, budget);
      const usage = budget.finish();
      return typeof reply === 'string' ? { failure: reply, usage } : { ...reply, usage };
    },
  };
}
