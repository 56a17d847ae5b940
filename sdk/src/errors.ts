// One error family: every failed call rejects with a GroundcheckError, and errorFromResponse picks the
// subclass for an HTTP answer. Names are set explicitly because minifiers rename classes.
import type { Problem } from '@groundcheck/contract';

export interface GroundcheckErrorInit {
  status?: number;
  code?: string;
  requestId?: string;
  problem?: Problem;
  headers?: Headers;
  cause?: unknown;
}

export class GroundcheckError extends Error {
  override name = 'GroundcheckError';
  /** The HTTP status; undefined when no response arrived (connection, timeout, abort). */
  readonly status: number | undefined;
  /** The problem's machine-readable `code`, such as `invalid_request` or `rate_limited`. */
  readonly code: string | undefined;
  /** The request id to quote to support (`X-Request-Id`). */
  readonly requestId: string | undefined;
  /** The RFC 9457 problem body, when the server sent one. */
  readonly problem: Problem | undefined;
  /** The response headers, when a response arrived. */
  readonly headers: Headers | undefined;
  declare readonly cause?: unknown;

  constructor(message: string, init: GroundcheckErrorInit = {}) {
    super(message);
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.problem = init.problem;
    this.headers = init.headers;
    if (init.cause !== undefined) Object.defineProperty(this, 'cause', { value: init.cause, configurable: true, writable: true });
  }
}

/** 400, 413 and any other 4xx without a class of its own: the request was not acceptable as sent. */
export class BadRequestError extends GroundcheckError {
  override name = 'BadRequestError';
}

/** 401: credentials missing, invalid or expired. */
export class AuthenticationError extends GroundcheckError {
  override name = 'AuthenticationError';
}

/** 403: the role, feature or kind of credentials does not allow the operation. */
export class PermissionError extends GroundcheckError {
  override name = 'PermissionError';
}

/** 404: no such object in the caller's tenant. */
export class NotFoundError extends GroundcheckError {
  override name = 'NotFoundError';
}

/** 409: the request conflicts with the object's current state. */
export class ConflictError extends GroundcheckError {
  override name = 'ConflictError';
}

/** 409 `idempotency_key_reused` or `idempotency_in_progress`. */
export class IdempotencyError extends ConflictError {
  override name = 'IdempotencyError';
}

/** 429: the tenant's rate limit (or the login throttle) is used up. */
export class RateLimitError extends GroundcheckError {
  override name = 'RateLimitError';
  /** How long the server asked to wait (`Retry-After`), or null when it did not say. */
  readonly retryAfterInMs: number | null;

  constructor(message: string, init: GroundcheckErrorInit = {}) {
    super(message, init);
    this.retryAfterInMs = retryAfterInMs(init.headers);
  }
}

/** 5xx: the server failed; the request id identifies the failure in its logs. */
export class ServerError extends GroundcheckError {
  override name = 'ServerError';
}

/** No response arrived: DNS, refused or dropped connection, TLS. */
export class ConnectionError extends GroundcheckError {
  override name = 'ConnectionError';
}

/** No response arrived within `timeoutInMs`. */
export class TimeoutError extends ConnectionError {
  override name = 'TimeoutError';
}

/** The caller's `abortSignal` fired; `cause` holds the signal's reason. */
export class RequestAbortedError extends GroundcheckError {
  override name = 'RequestAbortedError';
}

/** A webhook request failed verification; `code` says why. */
export type WebhookVerificationCode = 'missing_token' | 'invalid_token' | 'missing_signature' | 'invalid_signature' | 'invalid_payload';

export class WebhookVerificationError extends GroundcheckError {
  override name = 'WebhookVerificationError';
  declare readonly code: WebhookVerificationCode;

  constructor(code: WebhookVerificationCode, message: string) {
    super(message, { code });
  }
}

const idempotencyCodes = ['idempotency_key_reused', 'idempotency_in_progress'];

/** Maps an HTTP error response, and its body already read, to the error class for its status. */
export function errorFromResponse(response: Response, body?: unknown): GroundcheckError {
  const { status, headers } = response;
  const problem = isProblem(body) ? body : undefined;
  const code = problem?.code;
  const requestId = problem?.request_id ?? headers.get('X-Request-Id') ?? undefined;
  const detail = problem?.detail ?? problem?.title ?? (response.statusText || 'The request failed.');
  const message = `${status}${code ? ` ${code}` : ''}: ${detail}${fieldList(problem)}${requestId ? ` (request ${requestId})` : ''}`;
  const ErrorClass = errorClassFor(status, code);
  return new ErrorClass(message, { status, code, requestId, problem, headers });
}

/** The problem's invalid fields, for the message: " /question: must not be empty; (body): must be object". */
function fieldList(problem: Problem | undefined): string {
  const fields = Array.isArray(problem?.errors) ? problem.errors : [];
  if (fields.length === 0) return '';
  return ` ${fields.map((field) => `${field.pointer === '' ? '(body)' : field.pointer}: ${field.detail}`).join('; ')}`;
}

function errorClassFor(status: number, code: string | undefined): new (message: string, init: GroundcheckErrorInit) => GroundcheckError {
  if (status === 401) return AuthenticationError;
  if (status === 403) return PermissionError;
  if (status === 404) return NotFoundError;
  if (status === 409) return code && idempotencyCodes.includes(code) ? IdempotencyError : ConflictError;
  if (status === 429) return RateLimitError;
  if (status >= 400 && status < 500) return BadRequestError;
  if (status >= 500) return ServerError;
  return GroundcheckError;
}

function isProblem(body: unknown): body is Problem {
  return typeof body === 'object' && body !== null && typeof (body as Problem).code === 'string';
}

/** `Retry-After` in seconds or as an HTTP date, in milliseconds; null when absent or unreadable. */
export function retryAfterInMs(headers: Headers | undefined): number | null {
  const value = headers?.get('Retry-After');
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}
