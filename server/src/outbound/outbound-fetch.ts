// A fetch-shaped view of the guarded client, for libraries that take a custom fetch, such as jose:
// createRemoteJWKSet(url, { [customFetch]: outboundFetch(client) }).
import type { OutboundClient } from './outbound-client.js';

export type OutboundFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Statuses whose Response must have a null body (fetch standard). */
const nullBodyStatuses = new Set([101, 103, 204, 205, 304]);

/**
 * Refusals are thrown as the client's `OutboundRefusal`, where fetch would throw a TypeError. HTTP
 * error statuses are returned, as fetch returns them; `redirect: 'manual'` returns the 3xx itself.
 */
export function outboundFetch(client: OutboundClient): OutboundFetch {
  return async (input, init = {}) => {
    const request = input instanceof Request ? input : null;
    const url = request ? request.url : String(input);
    const headers: Record<string, string> = {};
    new Headers(init.headers ?? request?.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const body = init.body ?? null;
    if (body !== null && typeof body !== 'string' && !(body instanceof Uint8Array) && !(body instanceof ArrayBuffer)) {
      throw new TypeError('outboundFetch sends only string, Uint8Array or ArrayBuffer bodies.');
    }
    const redirect = init.redirect ?? request?.redirect ?? 'follow';
    const response = await client.request(url, {
      method: init.method ?? request?.method ?? 'GET',
      headers,
      ...(body !== null && { body: body instanceof ArrayBuffer ? new Uint8Array(body) : body }),
      ...((init.signal ?? request?.signal) && { signal: (init.signal ?? request?.signal)! }),
      acceptStatus: () => true,
      redirect: redirect === 'manual' ? 'manual' : 'follow',
      // fetch's `redirect: 'error'` refuses any redirect, which is a maximum of none.
      ...(redirect === 'error' && { maxRedirects: 0 }),
    });
    return new Response(nullBodyStatuses.has(response.status) ? null : new Uint8Array(response.body), {
      status: response.status,
      headers: response.headers,
    });
  };
}
