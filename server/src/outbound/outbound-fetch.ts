// A fetch-shaped view of the guarded client, for libraries that take a custom fetch, such as jose:
// createRemoteJWKSet(url, { [customFetch]: outboundFetch(client) }).
import type { OutboundClient, OutboundRequestOptions } from './outbound-client.js';

export type OutboundFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Statuses whose Response must have a null body (fetch standard). */
const nullBodyStatuses = new Set([101, 103, 204, 205, 304]);

function headersOf(init: RequestInit, request: Request | null): Record<string, string> {
  const headers: Record<string, string> = {};
  new Headers(init.headers ?? request?.headers).forEach((value, name) => {
    headers[name] = value;
  });
  return headers;
}

/** The body as the client sends it; streams, forms and blobs are not supported. */
function sendableBody(body: RequestInit['body']): string | Uint8Array | null {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  throw new TypeError('outboundFetch sends only string, Uint8Array or ArrayBuffer bodies.');
}

function redirectOptions(redirect: RequestRedirect): Pick<OutboundRequestOptions, 'redirect' | 'maxRedirects'> {
  return {
    redirect: redirect === 'manual' ? 'manual' : 'follow',
    // fetch's `redirect: 'error'` refuses any redirect, which is a maximum of none.
    ...(redirect === 'error' && { maxRedirects: 0 }),
  };
}

/**
 * Refusals are thrown as the client's `OutboundRefusal`, where fetch would throw a TypeError. HTTP
 * error statuses are returned, as fetch returns them; `redirect: 'manual'` returns the 3xx itself.
 */
export function outboundFetch(client: OutboundClient): OutboundFetch {
  return async (input, init = {}) => {
    const request = input instanceof Request ? input : null;
    const url = request ? request.url : String(input);
    const headers = headersOf(init, request);
    const body = sendableBody(init.body);
    const signal = init.signal ?? request?.signal;
    const response = await client.request(url, {
      method: init.method ?? request?.method ?? 'GET',
      headers,
      ...(body !== null && { body }),
      ...(signal && { signal }),
      acceptStatus: () => true,
      ...redirectOptions(init.redirect ?? request?.redirect ?? 'follow'),
    });
    return new Response(nullBodyStatuses.has(response.status) ? null : new Uint8Array(response.body), {
      status: response.status,
      headers: response.headers,
    });
  };
}
