// The one HTTP client for every outbound request: URL sources, API-backed endpoints, webhooks, JWKS.
// Each connection is made to an address that was checked in the same lookup that produced it, so a
// DNS answer that changes between a check and the connect (rebinding) cannot reach a refused address.

import { promises as dns, type LookupAddress } from 'node:dns';
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { pipeline, type Readable, type Transform } from 'node:stream';
import zlib from 'node:zlib';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { tracer } from '../telemetry/instruments.js';
import { type Allowlist, checkAddress, parseAllowlist } from './address-policy.js';
import { OutboundRefusal, type OutboundRefusalReason } from './outbound-refusal.js';

export interface OutboundClientOptions {
  /** Host names, addresses and CIDR ranges the operator permits although their range is refused. */
  allow?: readonly string[];
  connectTimeoutMs?: number;
  /** The whole exchange, redirects and body included. */
  totalTimeoutMs?: number;
  /** Largest response body, counted after decompression. */
  maxBytes?: number;
  maxRedirects?: number;
  userAgent?: string;
  /** Host name to addresses. Tests inject one; the default is the operating system's resolver. */
  resolve?: (hostName: string) => Promise<string[]>;
}

export interface OutboundRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  signal?: AbortSignal;
  /** Media types the response may have (`application/json`, `text/*`); sent as `Accept`. */
  accept?: readonly string[];
  /** Statuses returned rather than refused with `http_error`; default 2xx. */
  acceptStatus?: (status: number) => boolean;
  /** `manual` returns a 3xx as it is, as fetch's `redirect: 'manual'` does. */
  redirect?: 'follow' | 'manual';
  maxBytes?: number;
  totalTimeoutMs?: number;
  maxRedirects?: number;
}

export interface OutboundResponse {
  status: number;
  /** Lower-case names; `set-cookie` is dropped because this client keeps no cookies. */
  headers: Record<string, string>;
  body: Buffer;
  finalUrl: string;
  redirects: number;
}

export interface OutboundClient {
  request(url: string | URL, options?: OutboundRequestOptions): Promise<OutboundResponse>;
}

const defaults = { connectTimeoutMs: 5_000, totalTimeoutMs: 15_000, maxBytes: 5 * 1024 * 1024, maxRedirects: 3 };
const redirectStatuses = new Set([301, 302, 303, 307, 308]);
/** Caller headers that may follow a redirect to another origin; the rest (credentials, forwarded identity) may not. */
const crossOriginSafeHeaders = new Set(['accept', 'accept-language', 'user-agent']);
/** Headers this client sets itself or never sends. */
const droppedCallerHeaders = new Set(['host', 'cookie', 'content-length', 'connection', 'transfer-encoding', 'accept-encoding']);

async function systemResolve(hostName: string): Promise<string[]> {
  const answers = await dns.lookup(hostName, { all: true, verbatim: true });
  return answers.map((answer) => answer.address);
}

/** The static checks every hop passes before any socket exists: scheme, credentials, literal address. */
export function checkUrl(url: URL, allowlist: Allowlist): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundRefusal('scheme_not_allowed', url.href, `Only http and https are allowed, not ${url.protocol}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new OutboundRefusal('credentials_in_url', redact(url), 'A URL may not carry a user name or password.');
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // The URL parser has already turned 2130706433, 0177.0.0.1 and 0x7f.1 into dotted quads.
  if (isIP(host) !== 0) {
    const verdict = checkAddress(host, host, allowlist);
    if (!verdict.allowed) {
      throw new OutboundRefusal('address_not_allowed', url.href, `Address ${verdict.address} (${verdict.range}) is not allowed.`);
    }
  }
}

function redact(url: URL): string {
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  return copy.href;
}

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || name === 'set-cookie') continue;
    flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/** Decompressors by `Content-Encoding`; a body in any other encoding is read as it is. */
const decoders = new Map<string, () => Transform>([
  ['gzip', () => zlib.createGunzip()],
  ['x-gzip', () => zlib.createGunzip()],
  ['deflate', () => zlib.createInflate()],
  ['br', () => zlib.createBrotliDecompress()],
]);

function decoderFor(contentEncoding: string | undefined): Transform | null {
  return decoders.get((contentEncoding ?? '').trim().toLowerCase())?.() ?? null;
}

function mediaTypeMatches(contentType: string | undefined, accepted: readonly string[]): boolean {
  const essence = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (essence === '') return false;
  return accepted.some((pattern) => {
    const wanted = pattern.toLowerCase();
    return wanted === essence || (wanted.endsWith('/*') && essence.startsWith(wanted.slice(0, -1)));
  });
}

/** What one hop sends; a redirect may change each part. */
export interface Hop {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: Uint8Array | undefined;
}

function parseTarget(target: string | URL): URL {
  try {
    return new URL(target);
  } catch {
    throw new OutboundRefusal('invalid_url', String(target), 'Not a valid absolute URL.');
  }
}

/** The caller's headers under lower-case names, less those this client sets itself, with the defaults added. */
export function callerHeaders(requestOptions: OutboundRequestOptions, userAgent: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(requestOptions.headers ?? {})) {
    if (!droppedCallerHeaders.has(name.toLowerCase())) headers[name.toLowerCase()] = value;
  }
  headers['user-agent'] ??= userAgent;
  if (requestOptions.accept && headers.accept === undefined) headers.accept = requestOptions.accept.join(', ');
  return headers;
}

/** The hop that a redirect with this status and location leads to. */
export function redirectedHop(hop: Hop, status: number, location: string): Hop {
  let next: URL;
  try {
    next = new URL(location, hop.url);
  } catch {
    throw new OutboundRefusal('invalid_url', hop.url.href, 'The redirect location is not a valid URL.');
  }
  let { method, headers, body } = hop;
  // As browsers do: 303, and 301/302 after a POST, continue as a GET without the body.
  if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
    if (method !== 'HEAD') method = 'GET';
    body = undefined;
    headers = Object.fromEntries(Object.entries(headers).filter(([name]) => name !== 'content-type'));
  }
  if (next.origin !== hop.url.origin) {
    headers = Object.fromEntries(Object.entries(headers).filter(([name]) => crossOriginSafeHeaders.has(name)));
  }
  return { url: next, method, headers, body };
}

/** Where a response redirects to, unless it is not a redirect or the caller takes redirects as they are. */
function locationToFollow(response: IncomingMessage, mode: OutboundRequestOptions['redirect']): string | undefined {
  const location = response.headers.location;
  if (mode === 'manual' || !redirectStatuses.has(response.statusCode ?? 0)) return undefined;
  return location;
}

/** Refuses a response that is not to be followed when its status or media type is not one the caller accepts. */
function checkFinalResponse(
  response: IncomingMessage,
  url: URL,
  acceptStatus: (status: number) => boolean,
  accept: readonly string[] | undefined,
): void {
  const status = response.statusCode ?? 0;
  if (!acceptStatus(status)) {
    response.destroy();
    throw new OutboundRefusal('http_error', url.href, `The server answered ${status}.`, status);
  }
  if (accept && !mediaTypeMatches(response.headers['content-type'], accept)) {
    response.destroy();
    throw new OutboundRefusal(
      'unsupported_content_type',
      url.href,
      `The response is ${response.headers['content-type'] ?? 'untyped'}, not ${accept.join(' or ')}.`,
    );
  }
}

/** The span attributes for a request's target; none for an invalid URL, which is refused and recorded as the span's error. */
function targetAttributes(target: string | URL): Record<string, string> {
  try {
    const url = new URL(target);
    return { 'server.address': url.hostname, 'url.scheme': url.protocol.replace(':', '') };
  } catch {
    return {};
  }
}

function failureAttributes(error: unknown): Record<string, string | number> {
  if (!(error instanceof OutboundRefusal)) return { 'error.type': 'error' };
  return error.status ? { 'error.type': error.reason, 'http.response.status_code': error.status } : { 'error.type': error.reason };
}

export function createOutboundClient(options: OutboundClientOptions = {}): OutboundClient {
  const allowlist = parseAllowlist(options.allow ?? []);
  const resolve = options.resolve ?? systemResolve;
  const connectTimeoutMs = options.connectTimeoutMs ?? defaults.connectTimeoutMs;
  const userAgent = options.userAgent ?? 'Groundcheck';

  /** A `lookup` for http.request that refuses the host unless every address it resolves to is allowed. */
  function guardedLookup(url: URL) {
    return (hostName: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) => {
      resolve(hostName)
        .then((addresses) => {
          if (addresses.length === 0) throw new OutboundRefusal('dns_failed', url.href, `${hostName} has no address.`);
          for (const address of addresses) {
            const verdict = checkAddress(address, hostName, allowlist);
            if (!verdict.allowed) {
              throw new OutboundRefusal(
                'address_not_allowed',
                url.href,
                `${hostName} resolves to ${verdict.address} (${verdict.range}), which is not allowed.`,
              );
            }
          }
          return addresses.map((address): LookupAddress => ({ address, family: isIP(address) }));
        })
        .then(
          (checked) => {
            if (lookupOptions.all) callback(null, checked);
            else callback(null, checked[0]!.address, checked[0]!.family);
          },
          (error: unknown) => {
            callback(
              error instanceof OutboundRefusal ? error : new OutboundRefusal('dns_failed', url.href, `${hostName} could not be resolved.`),
            );
          },
        );
    };
  }

  /** Sends one hop and resolves with the response once its headers have arrived. */
  function send(
    url: URL,
    method: string,
    headers: Record<string, string>,
    body: Uint8Array | undefined,
    signal: AbortSignal,
  ): Promise<IncomingMessage> {
    checkUrl(url, allowlist);
    const secure = url.protocol === 'https:';
    return new Promise((resolvePromise, reject) => {
      const request = (secure ? https : http).request(url, {
        method,
        headers: body ? { ...headers, 'content-length': String(body.byteLength) } : headers,
        agent: false, // no pooled socket outlives the check that allowed it
        lookup: guardedLookup(url) as never,
        signal,
      });
      const connectTimer = setTimeout(() => {
        request.destroy(new OutboundRefusal('timeout', url.href, `No connection within ${connectTimeoutMs} ms.`));
      }, connectTimeoutMs);
      request.once('socket', (socket) => socket.once(secure ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer)));
      request.once('response', (response) => {
        clearTimeout(connectTimer);
        resolvePromise(response);
      });
      request.once('error', (error) => {
        clearTimeout(connectTimer);
        reject(error);
      });
      request.end(body);
    });
  }

  async function readBody(response: IncomingMessage, url: URL, maxBytes: number): Promise<Buffer> {
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      response.destroy();
      throw new OutboundRefusal('too_large', url.href, `The response declares ${declared} bytes; the limit is ${maxBytes}.`);
    }
    const decoder = decoderFor(response.headers['content-encoding']);
    const stream: Readable = decoder ? pipeline(response, decoder, () => {}) : response;
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of stream) {
      total += (chunk as Buffer).length;
      if (total > maxBytes) {
        response.destroy();
        stream.destroy();
        throw new OutboundRefusal('too_large', url.href, `The response exceeds the limit of ${maxBytes} bytes.`);
      }
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks);
  }

  function toRefusal(
    error: unknown,
    url: URL,
    deadline: AbortSignal,
    callerSignal: AbortSignal | undefined,
    totalTimeoutMs: number,
  ): OutboundRefusal {
    if (error instanceof OutboundRefusal) return error;
    if (callerSignal?.aborted) return new OutboundRefusal('aborted', url.href, 'The caller cancelled the request.');
    if (deadline.aborted) return new OutboundRefusal('timeout', url.href, `No complete response within ${totalTimeoutMs} ms.`);
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const reason: OutboundRefusalReason = code === 'ENOTFOUND' || code === 'EAI_AGAIN' ? 'dns_failed' : 'connect_failed';
    return new OutboundRefusal(reason, url.href, `The request failed (${code || (error as Error).message}).`);
  }

  /** One request as a client span: the host and status, never the path's query or the headers. */
  function request(target: string | URL, requestOptions: OutboundRequestOptions = {}): Promise<OutboundResponse> {
    const method = (requestOptions.method ?? 'GET').toUpperCase();
    return tracer().startActiveSpan(method, { kind: SpanKind.CLIENT, attributes: { 'http.request.method': method } }, async (span) => {
      span.setAttributes(targetAttributes(target));
      try {
        const response = await exchange(target, requestOptions);
        span.setAttribute('http.response.status_code', response.status);
        return response;
      } catch (error) {
        span.setAttributes(failureAttributes(error));
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    });
  }

  /** The request's own limits, else the client's, else the defaults. */
  function limitsFor(requestOptions: OutboundRequestOptions) {
    return {
      maxBytes: requestOptions.maxBytes ?? options.maxBytes ?? defaults.maxBytes,
      maxRedirects: requestOptions.maxRedirects ?? options.maxRedirects ?? defaults.maxRedirects,
      totalTimeoutMs: requestOptions.totalTimeoutMs ?? options.totalTimeoutMs ?? defaults.totalTimeoutMs,
      acceptStatus: requestOptions.acceptStatus ?? ((status: number) => status >= 200 && status < 300),
    };
  }

  /** The request with its redirects, within the limits. */
  async function exchange(target: string | URL, requestOptions: OutboundRequestOptions): Promise<OutboundResponse> {
    const url = parseTarget(target);
    const { maxBytes, maxRedirects, totalTimeoutMs, acceptStatus } = limitsFor(requestOptions);
    const deadline = AbortSignal.timeout(totalTimeoutMs);
    const signal = requestOptions.signal ? AbortSignal.any([deadline, requestOptions.signal]) : deadline;
    const fixedHeaders = { 'accept-encoding': 'gzip, deflate, br' };

    const sendHop = async (hop: Hop): Promise<IncomingMessage> => {
      try {
        return await send(hop.url, hop.method, { ...hop.headers, ...fixedHeaders }, hop.body, signal);
      } catch (error) {
        throw toRefusal(error, hop.url, deadline, requestOptions.signal, totalTimeoutMs);
      }
    };
    const completeHop = async (response: IncomingMessage, hop: Hop, redirects: number): Promise<OutboundResponse> => {
      try {
        const responseBody = hop.method === 'HEAD' ? Buffer.alloc(0) : await readBody(response, hop.url, maxBytes);
        return {
          status: response.statusCode ?? 0,
          headers: flattenHeaders(response.headers),
          body: responseBody,
          finalUrl: hop.url.href,
          redirects,
        };
      } catch (error) {
        throw toRefusal(error, hop.url, deadline, requestOptions.signal, totalTimeoutMs);
      }
    };

    let hop: Hop = {
      url,
      method: (requestOptions.method ?? 'GET').toUpperCase(),
      headers: callerHeaders(requestOptions, userAgent),
      body: typeof requestOptions.body === 'string' ? Buffer.from(requestOptions.body) : requestOptions.body,
    };
    for (let redirects = 0; ; redirects++) {
      const response = await sendHop(hop);
      const location = locationToFollow(response, requestOptions.redirect);
      if (location === undefined) {
        checkFinalResponse(response, hop.url, acceptStatus, requestOptions.accept);
        return completeHop(response, hop, redirects);
      }
      response.destroy();
      if (redirects >= maxRedirects) {
        throw new OutboundRefusal('too_many_redirects', hop.url.href, `More than ${maxRedirects} redirects.`);
      }
      hop = redirectedHop(hop, response.statusCode ?? 0, location);
    }
  }

  return { request };
}
