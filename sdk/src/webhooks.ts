// Receiving the `service.validation.findings` webhook in any runtime with Web Crypto: check the bearer
// token in constant time, then check the payload's shape against the contract.
import { WebhookVerificationError } from './errors.js';
import type { ValidationFindingsEvent } from './generated/schemas.js';
import { type Shape, validationFindingsEventShape } from './generated/webhook-shape.js';

/** A Fetch `Headers` object, or a plain record such as Node's `req.headers`. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/** The raw body (string or bytes), or the JSON your framework already parsed. */
export type WebhookBody = string | Uint8Array | ArrayBuffer | Record<string, unknown>;

export interface VerifyWebhookOptions {
  headers: WebhookHeaders;
  body: WebhookBody;
  /** The tenant's webhook bearer token, or during a rotation both the old and the new one. */
  token: string | readonly string[];
}

/**
 * Checks `Authorization: Bearer <token>` against the expected token(s) in constant time and returns
 * the typed event. Throws WebhookVerificationError with code `missing_token`, `invalid_token` or
 * `invalid_payload`.
 */
export async function verifyWebhook({ headers, body, token }: VerifyWebhookOptions): Promise<ValidationFindingsEvent> {
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
  const event = parseWebhookEvent(body);
  const eventId = header(headers, 'groundcheck-event-id');
  if (eventId !== undefined && eventId !== event.event_id) {
    throw new WebhookVerificationError('invalid_payload', "The Groundcheck-Event-Id header does not match the payload's event_id.");
  }
  return event;
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
  if (Array.isArray(shape)) {
    if (!Array.isArray(value)) return `${where} must be an array`;
    for (const [index, item] of value.entries()) {
      const mismatch = shapeMismatch(item, shape[0], `${path}/${index}`);
      if (mismatch) return mismatch;
    }
    return null;
  }
  if ('const' in shape) return value === shape.const ? null : `${where} must be ${JSON.stringify(shape.const)}`;
  if (!hasType(value, 'object')) return `${where} must be an object`;
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
