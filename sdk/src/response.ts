// What a result tells about the HTTP response it came from: status, request id, rate-limit window.

export interface RateLimitInfo {
  /** Requests allowed per window for the tenant (`RateLimit-Limit`). */
  limit: number;
  /** Requests left in the current window (`RateLimit-Remaining`). */
  remaining: number;
  /** Seconds until the window resets (`RateLimit-Reset`). */
  reset: number;
}

export interface ResponseInfo {
  status: number;
  /** `X-Request-Id`: quote it when reporting a problem. */
  requestId: string | null;
  /** The tenant's rate-limit window after this call; null on calls that are not counted (login). */
  rateLimit: RateLimitInfo | null;
  headers: Headers;
}

/** A result with the response it came from, as the non-enumerable `lastResponse` property. */
export type WithResponse<T> = T & { readonly lastResponse: ResponseInfo };

export function responseInfo(response: Response): ResponseInfo {
  const { headers } = response;
  const figure = (name: string) => {
    const value = headers.get(name);
    return value !== null && /^\d+$/.test(value.trim()) ? Number(value) : null;
  };
  const limit = figure('RateLimit-Limit');
  const remaining = figure('RateLimit-Remaining');
  const reset = figure('RateLimit-Reset');
  return {
    status: response.status,
    requestId: headers.get('X-Request-Id'),
    rateLimit: limit !== null && remaining !== null && reset !== null ? { limit, remaining, reset } : null,
    headers,
  };
}

/** Attaches `lastResponse` without changing what JSON.stringify, spreads or deep equality see. */
export function withResponse<T>(data: T, response: Response): WithResponse<T> {
  if (typeof data === 'object' && data !== null) {
    Object.defineProperty(data, 'lastResponse', { value: responseInfo(response), enumerable: false, configurable: true });
  }
  return data as WithResponse<T>;
}
