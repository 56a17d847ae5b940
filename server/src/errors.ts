// One error class per category of problem; http/problem.ts turns them into RFC 9457 responses.
import type { FieldError } from '@groundcheck/contract';

export abstract class ApiError extends Error {
  abstract readonly status: number;
  abstract readonly title: string;
  readonly headers: Record<string, string> = {};

  constructor(
    readonly code: string,
    readonly detail: string,
    readonly fieldErrors: FieldError[] = [],
  ) {
    super(detail);
    this.name = new.target.name;
  }
}

export class BadRequestError extends ApiError {
  readonly status = 400;
  readonly title = 'Invalid request';
}

export class AuthenticationError extends ApiError {
  readonly status = 401;
  readonly title = 'Authentication required';
  override readonly headers = { 'WWW-Authenticate': 'Bearer' };
}

export class PermissionError extends ApiError {
  readonly status = 403;
  readonly title = 'Forbidden';
}

export class NotFoundError extends ApiError {
  readonly status = 404;
  readonly title = 'Not found';
}

export class MethodNotAllowedError extends ApiError {
  readonly status = 405;
  readonly title = 'Method not allowed';
  constructor(allowed: string[]) {
    super('method_not_allowed', `This path accepts ${allowed.join(', ')}.`);
    this.headers.Allow = allowed.join(', ');
  }
}

export class RequestTimeoutError extends ApiError {
  readonly status = 408;
  readonly title = 'Request timeout';
}

export class ConflictError extends ApiError {
  readonly status = 409;
  readonly title = 'Conflict';
}

export class PayloadTooLargeError extends ApiError {
  readonly status = 413;
  readonly title = 'Payload too large';
}

export class UnsupportedMediaTypeError extends ApiError {
  readonly status = 415;
  readonly title = 'Unsupported media type';
}

export class HeadersTooLargeError extends ApiError {
  readonly status = 431;
  readonly title = 'Request header fields too large';
}

export class RateLimitError extends ApiError {
  readonly status = 429;
  readonly title = 'Too many requests';
  constructor(code: string, detail: string, retryAfterSeconds: number) {
    super(code, detail);
    this.headers['Retry-After'] = String(retryAfterSeconds);
  }
}

export class InternalError extends ApiError {
  readonly status = 500;
  readonly title = 'Internal error';
}

/** The operation exists in the contract but the reference server does not serve it yet. */
export class NotImplementedError extends ApiError {
  readonly status = 501;
  readonly title = 'Not implemented';
}

/** Every 503 tells the caller when to try again (`Retry-After`). */
export class UnavailableError extends ApiError {
  readonly status = 503;
  readonly title = 'Service unavailable';
  constructor(code: string, detail: string, retryAfterSeconds: number) {
    super(code, detail);
    this.headers['Retry-After'] = String(retryAfterSeconds);
  }
}

/** A store (Cosmos DB, Blob Storage) that did not answer within its timeout (STORE_TIMEOUT_MS): 503, retry shortly. */
export function storeStalled(timeoutMs: number): UnavailableError {
  const seconds = Math.ceil(timeoutMs / 1000);
  const retryAfter = Math.min(5, seconds);
  return new UnavailableError(
    'service_unavailable',
    `The data store did not answer within ${seconds} seconds; retry in ${retryAfter} seconds.`,
    retryAfter,
  );
}
