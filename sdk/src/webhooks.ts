// Receiving the `service.validation.findings` webhook in any runtime with Web Crypto: check the bearer
// token and, when the operator set a signing secret, the Standard Webhooks signature, both in
// constant time; then check the payload's shape against the contract.

import type { ValidationFindingsEvent } from '@groundcheck/contract';
import { type Shape, validationFindingsEventShape } from '@groundcheck/contract';
import { WebhookVerificationError } from './errors.js';

/** A Fetch `Headers` object, or a plain record such as Node's `req.headers`. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/** The raw body (string or bytes), or the JSON your framework already parsed. */
export type WebhookBody = string | Uint8Array | ArrayBuffer | Record<string, unknown>;

export interface VerifyWebhookOptions {
  headers: WebhookHeaders;
  /** The raw body as received; with `signingSecret`, the parsed JSON will not do (the signature covers the bytes). */
  body: WebhookBody;
  /** The tenant's webhook bearer token, or during a rotation both the old and the new one. */
  token?: string | readonly string[];
  /** The Standard Webhooks secret (`whsec_…`), or during a rotation both; checks `webhook-signature`. */
  signingSecret?: string | readonly string[];
  /** How far `webhook-timestamp` may be from now; default 300 seconds (Standard Webhooks). */
  toleranceInSeconds?: number;
}

/**
 * Checks `Authorization: Bearer <token>` against the expected token(s) and, with `signingSecret`, the
 * Standard Webhooks signature, then returns the typed event. Throws WebhookVerificationError with
 * code `missing_token`, `invalid_token`, `missing_signature`, `invalid_signature` or `invalid_payload`.
 */
export async function verifyWebhook({
  headers,
  body,
  token,
  signingSecret,
  toleranceInSeconds = 300,
}: VerifyWebhookOptions): Promise<ValidationFindingsEvent> {
  if (token === undefined && signingSecret === undefined)
    throw new TypeError('verifyWebhook needs the webhook token, the signing secret, or both.');
  if (token !== undefined) await verifyToken(headers, token);
  if (signingSecret !== undefined) await verifySignature(headers, body, signingSecret, toleranceInSeconds);
  const event = parseWebhookEvent(body);
  const eventId = header(headers, 'groundcheck-event-id');
  if (eventId !== undefined && eventId !== event.event_id) {
    throw new WebhookVerificationError('invalid_payload', "The Groundcheck-Event-Id header does not match the payload's event_id.");
  }
  return event;
}

async function verifyToken(headers: WebhookHeaders, token: string | readonly string[]): Promise<void> {
  const expected: readonly string[] = typeof token === 'string' ? [token] : token;
  if (expected.length === 0 || expected.some((t) => typeof t !== 'string' || t === '')) {
    throw new TypeError('verifyWebhook needs the webhook token, or a list of tokens during a rotation.');
  }
  const presented = /^Bearer +(\S+) *$/i.exec(header(headers, 'authorization') ?? '')?.[1];
  if (!presented) throw new WebhookVerificationError('missing_token', 'The request has no "Authorization: Bearer <token>" header.');
  let matched = false;
  // Every token is compared, so the time taken does not tell which one (if any) matched.
  for (const candidate of expected) matched = (await constantTimeEqual(presented, candidate)) || matched;
  if (!matched) throw new WebhookVerificationError('invalid_token', 'The bearer token does not match the webhook token.');
}

/**
 * Standard Webhooks: `webhook-signature` holds space-separated `v1,<base64 HMAC-SHA256>` of
 * `<webhook-id>.<webhook-timestamp>.<body>` under the secret's base64 key; the timestamp must be
 * within the tolerance, so a captured request cannot be replayed later.
 */
async function verifySignature(
  headers: WebhookHeaders,
  body: WebhookBody,
  signingSecret: string | readonly string[],
  toleranceInSeconds: number,
): Promise<void> {
  const secrets: readonly string[] = typeof signingSecret === 'string' ? [signingSecret] : signingSecret;
  if (secrets.length === 0 || secrets.some((s) => typeof s !== 'string' || !/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(s))) {
    throw new TypeError('verifyWebhook needs the signing secret as whsec_<base64>, or a list of them during a rotation.');
  }
  if (typeof body !== 'string' && !(body instanceof Uint8Array) && !(body instanceof ArrayBuffer)) {
    throw new TypeError('verifyWebhook needs the raw body (string or bytes) to check a signature.');
  }
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) {
    throw new WebhookVerificationError('missing_signature', 'The request lacks webhook-id, webhook-timestamp or webhook-signature.');
  }
  const seconds = /^\d{1,12}$/.test(timestamp) ? Number(timestamp) : Number.NaN;
  if (!(Math.abs(Date.now() / 1000 - seconds) <= toleranceInSeconds)) {
    throw new WebhookVerificationError('invalid_signature', `webhook-timestamp is not within ${toleranceInSeconds} seconds of now.`);
  }
  const bytes = typeof body === 'string' ? encoder.encode(body) : new Uint8Array(body);
  const signed = new Uint8Array([...encoder.encode(`${id}.${timestamp}.`), ...bytes]);
  const presented = signatures.split(' ').flatMap((entry) => (entry.startsWith('v1,') ? [entry.slice(3)] : []));
  let matched = false;
  // Every pair is compared, so the time taken does not tell which one (if any) matched.
  for (const secret of secrets) {
    const expected = await hmacBase64(secret, signed);
    for (const candidate of presented) matched = (await constantTimeEqual(candidate, expected)) || matched;
  }
  if (!matched) throw new WebhookVerificationError('invalid_signature', 'No webhook-signature matches the signing secret.');
}

async function hmacBase64(secret: string, message: Uint8Array<ArrayBuffer>): Promise<string> {
  const subtle = typeof crypto !== 'undefined' ? crypto.subtle : undefined;
  if (!subtle) throw new TypeError('Checking webhook signatures needs Web Crypto (crypto.subtle).');
  const key = await subtle.importKey('raw', base64Bytes(secret.slice('whsec_'.length)), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await subtle.sign('HMAC', key, message));
  return btoa(String.fromCharCode(...mac));
}

function base64Bytes(text: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Array.from(atob(text), (char) => char.charCodeAt(0)));
}

/** Parses the body and checks that it has the event's required fields with their JSON types. */
export function parseWebhookEvent(body: WebhookBody): ValidationFindingsEvent {
  let payload: unknown = body;
  if (typeof body === 'string' || body instanceof Uint8Array || body instanceof ArrayBuffer) {
    try {
      payload = JSON.parse(typeof body === 'string' ? body : new TextDecoder().decode(body));
    } catch {
      throw new WebhookVerificationError('invalid_payload', 'The webhook body is not JSON.');
    }
  }
  const mismatch = shapeMismatch(payload, validationFindingsEventShape, '');
  if (mismatch)
    throw new WebhookVerificationError('invalid_payload', `The webhook body is not a service.validation.findings event: ${mismatch}.`);
  return payload as ValidationFindingsEvent;
}

function shapeMismatch(value: unknown, shape: Shape, path: string): string | null {
  const where = path || 'the body';
  if (typeof shape === 'string') {
    return shape.split('|').some((type) => hasType(value, type)) ? null : `${where} must be ${shape.split('|').join(' or ')}`;
  }
  if (Array.isArray(shape)) return arrayMismatch(value, shape[0], path);
  if ('const' in shape) return value === shape.const ? null : `${where} must be ${JSON.stringify(shape.const)}`;
  return objectMismatch(value, shape, path);
}

function arrayMismatch(value: unknown, itemShape: Shape, path: string): string | null {
  if (!Array.isArray(value)) return `${path || 'the body'} must be an array`;
  for (const [index, item] of value.entries()) {
    const mismatch = shapeMismatch(item, itemShape, `${path}/${index}`);
    if (mismatch) return mismatch;
  }
  return null;
}

function objectMismatch(value: unknown, shape: Record<string, Shape>, path: string): string | null {
  if (!hasType(value, 'object')) return `${path || 'the body'} must be an object`;
  for (const [field, fieldShape] of Object.entries(shape)) {
    const mismatch = shapeMismatch((value as Record<string, unknown>)[field], fieldShape, `${path}/${field}`);
    if (mismatch) return mismatch;
  }
  return null;
}

function hasType(value: unknown, type: string): boolean {
  if (type === 'integer') return Number.isInteger(value);
  if (type === 'null') return value === null;
  if (type === 'object') return typeof value === 'object' && value !== null && !Array.isArray(value);
  return typeof value === type;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof headers.get === 'function') return (headers as Headers).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value[0] : (value as string | undefined);
  }
  return undefined;
}

const encoder = new TextEncoder();

/** SHA-256 digests of both sides are compared byte by byte, so neither length nor content shows in the time. */
async function constantTimeEqual(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([digest(a), digest(b)]);
  let difference = x.length ^ y.length;
  const length = Math.max(x.length, y.length);
  for (let i = 0; i < length; i += 1) difference |= x[i % x.length]! ^ y[i % y.length]!;
  return difference === 0;
}

async function digest(value: string): Promise<Uint8Array> {
  const bytes = encoder.encode(value);
  const subtle = typeof crypto !== 'undefined' ? crypto.subtle : undefined;
  // Without Web Crypto (Node 18 without its flag) the raw bytes are compared: only lengths can show.
  return subtle ? new Uint8Array(await subtle.digest('SHA-256', bytes)) : bytes;
}
