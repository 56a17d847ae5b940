// Every HTTP concern of a call in one place: per-attempt timeout, the caller's abort signal, retries
// with backoff and jitter that honour Retry-After, and the Idempotency-Key that makes retries safe.

import type { paths } from '@groundcheck/contract';
import { idempotentPaths } from '@groundcheck/contract';
import type { Client, Middleware } from 'openapi-fetch';
import { BufferedResponse } from './buffered-response.js';
import { ConnectionError, errorFromResponse, RequestAbortedError, retryAfterInMs, TimeoutError } from './errors.js';
import { PreparedRequest } from './prepared-request.js';
import { type WithResponse, withResponse } from './response.js';

/** Options every method accepts as its last argument. */
export interface RequestOptions {
  /** Cancels the call, including any wait between retries. */
  abortSignal?: AbortSignal;
  /** Time allowed for each attempt, in milliseconds; overrides the client's `timeoutInMs`. */
  timeoutInMs?: number;
  /** Retries after a connection error, timeout, 408, 429 or 5xx; overrides the client's `maxRetries`. */
  maxRetries?: number;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
}

/** A fetch implementation as the client calls it: one Request in, one Response out. */
export type Fetch = (request: Request) => Promise<Response>;

export interface RetryPolicy {
  /** The caller's own fetch; without one, the runtime's is called with a URL and init (no Request built). */
  fetch?: Fetch;
  timeoutInMs: number;
  maxRetries: number;
  /**
   * A successful response's body is left to the caller as a stream, and the timeout covers only
   * the wait for its headers (a large download may take as long as it needs). Problems are read.
   */
  stream?: boolean;
}

export const defaultTimeoutInMs = 60_000;
export const defaultMaxRetries = 2;
const initialRetryDelayInMs = 500;
const maxRetryDelayInMs = 8_000;
/** A Retry-After longer than this is not waited for: the error goes to the caller instead. */
const maxRetryAfterInMs = 60_000;

/**
 * Sends a request, retrying what a retry can fix. Resolves with the final response, its body already
 * read, so the timeout also covers a body that stalls; rejects with ConnectionError, TimeoutError or
 * RequestAbortedError when no response arrived.
 */
export async function send(request: Request | PreparedRequest, policy: RetryPolicy): Promise<Response> {
  const callerSignal = request.signal ?? undefined;
  for (let attempt = 0; ; attempt += 1) {
    let response: Response;
    try {
      response = await sendOnce(request, policy);
    } catch (error) {
      if (error instanceof RequestAbortedError || attempt >= policy.maxRetries) throw error;
      await sleep(retryDelayInMs(attempt) ?? 0, callerSignal);
      continue;
    }
    if (attempt >= policy.maxRetries || !(await isRetryable(request, response))) return response;
    const delay = retryDelayInMs(attempt, response);
    if (delay === null) return response;
    await sleep(delay, callerSignal);
  }
}

/** One attempt's fetch: the runtime's is given the URL and init, a caller's own fetch a Request. */
function fetchAttempt(request: Request | PreparedRequest, policy: RetryPolicy, signal: AbortSignal): Promise<Response> {
  if (request instanceof PreparedRequest) {
    return policy.fetch ? policy.fetch(request.toRequest(signal)) : fetch(request.url, request.attemptInit(signal));
  }
  // A Request's body can be read once: each attempt sends a copy.
  const attempt = new Request(request.clone(), { signal });
  return policy.fetch ? policy.fetch(attempt) : fetch(attempt);
}

async function sendOnce(request: Request | PreparedRequest, policy: RetryPolicy): Promise<Response> {
  const callerSignal = request.signal ?? undefined;
  if (callerSignal?.aborted) throw aborted(callerSignal);
  const controller = new AbortController();
  const onAbort = () => controller.abort(callerSignal?.reason);
  callerSignal?.addEventListener('abort', onAbort);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new TimeoutError(`No response within ${policy.timeoutInMs} ms.`));
  }, policy.timeoutInMs);
  let streaming = false;
  try {
    // The runtime's fetch settles when its signal fires; a caller's own might not.
    const settled = policy.fetch ? abortable : <T>(promise: Promise<T>) => promise;
    const response = await settled(fetchAttempt(request, policy, controller.signal), controller.signal);
    if (policy.stream && response.ok) {
      // The caller's abort still cancels the stream; the timeout no longer applies.
      streaming = true;
      return response;
    }
    const body = [204, 205, 304].includes(response.status) ? null : await settled(response.arrayBuffer(), controller.signal);
    return new BufferedResponse(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  } catch (error) {
    throw attemptFailure(error, request, callerSignal, timedOut, policy.timeoutInMs);
  } finally {
    clearTimeout(timer);
    // A stream being read stays cancellable by the caller's signal.
    if (!streaming) callerSignal?.removeEventListener('abort', onAbort);
  }
}

/** Why an attempt got no response: the caller aborted, the attempt timed out, or the connection failed. */
function attemptFailure(
  error: unknown,
  request: Request | PreparedRequest,
  callerSignal: AbortSignal | undefined,
  timedOut: boolean,
  timeoutInMs: number,
): RequestAbortedError | TimeoutError | ConnectionError {
  if (callerSignal?.aborted) return aborted(callerSignal);
  if (timedOut) return new TimeoutError(`No response within ${timeoutInMs} ms.`);
  // Node's fetch says only "fetch failed"; the reason (ECONNREFUSED, socket hang up) is its cause.
  const cause = (error as { cause?: unknown } | null)?.cause;
  const reason = cause instanceof Error ? cause.message : error instanceof Error ? error.message : String(error);
  return new ConnectionError(`Could not reach ${new URL(request.url).origin}: ${reason}`, { cause: error });
}

async function isRetryable(request: Request | PreparedRequest, response: Response): Promise<boolean> {
  const { status } = response;
  // 501 means the operation is not served at all; another attempt cannot change that.
  if (status === 408 || status === 429 || (status >= 500 && status !== 501)) return true;
  // The first attempt with this key is still running: wait for it, then get its replay.
  if (status === 409 && request.headers.has('Idempotency-Key')) {
    try {
      return (JSON.parse(await response.clone().text()) as { code?: unknown }).code === 'idempotency_in_progress';
    } catch {
      return false;
    }
  }
  return false;
}

/** Exponential backoff with jitter, or the server's Retry-After; null when that is too long to wait. */
export function retryDelayInMs(attempt: number, response?: Response): number | null {
  const requested = retryAfterInMs(response?.headers);
  if (requested !== null) return requested <= maxRetryAfterInMs ? requested : null;
  const delay = Math.min(initialRetryDelayInMs * 2 ** attempt, maxRetryDelayInMs);
  return delay * (1 - Math.random() * 0.25);
}

function aborted(signal: AbortSignal): RequestAbortedError {
  return new RequestAbortedError('The request was aborted.', { cause: signal.reason });
}

/** Settles with the promise, or rejects as soon as the signal fires (for fetches that ignore it). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort);
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return new Promise((resolve) => setTimeout(resolve, ms));
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(aborted(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(aborted(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** A fresh key per logical call, kept across its retries. */
export function newIdempotencyKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // Runtimes without Web Crypto (Node 18 without --experimental-global-webcrypto).
  return 'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, (c) => {
    const r = (Math.random() * 16) | 0;
    return (c === 'x' ? r : (r & 0x3) | 0x8).toString(16);
  });
}

/**
 * Gives every call to an operation that declares the Idempotency-Key header a key, unless the caller
 * set one. It runs once per call, before the retry loop, so every attempt carries the same key.
 */
export const idempotencyKeyMiddleware: Middleware = {
  onRequest({ request, schemaPath }) {
    if (!idempotentPaths.includes(schemaPath as never) || request.headers.has('Idempotency-Key')) return undefined;
    request.headers.set('Idempotency-Key', newIdempotencyKey());
    return request;
  },
};

/** What resources call through: the openapi-fetch client and the per-call settings. */
export interface Transport {
  /** The openapi-fetch client the methods call through. */
  raw: Client<paths>;
  /** The client's retry policy with this call's overrides. */
  policy(options?: RequestOptions): RetryPolicy;
  /** The part of an openapi-fetch init that carries this call's signal, headers and retrying fetch. */
  init(options?: RequestOptions): { signal?: AbortSignal; headers?: Record<string, string>; fetch: Fetch };
  /** The same, for a download whose successful body is streamed (RetryPolicy.stream). */
  streamingInit(options?: RequestOptions): { signal?: AbortSignal; headers?: Record<string, string>; fetch: Fetch };
}

/**
 * `init` asking for one media type of success, and problems (the caller's own `Accept` still wins):
 * for operations that answer in several types.
 */
export function accepting(
  init: ReturnType<Transport['init']>,
  mediaType: string,
): ReturnType<Transport['init']> & { headers: Record<string, string> } {
  return { ...init, headers: { accept: `${mediaType}, application/problem+json`, ...init.headers } };
}

/** What openapi-fetch returns for one call. */
interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of a successful call, with its `lastResponse`; any other outcome throws its error class. */
export function unwrap<T>(result: FetchResult<T>): WithResponse<T> {
  if (!result.response.ok) throw errorFromResponse(result.response, result.error);
  return withResponse(result.data as T, result.response);
}
