// Prism's answers as the server would give them. Prism fills every header of the contract from its
// examples, so each answer said `Idempotent-Replayed: true` and the same `X-Request-Id`; here the
// replay header goes (idempotency.ts adds it to a true replay), each call gets its own request id
// (also in a problem's `request_id`, with its path as `instance`), results and the system card name
// the engine the mock was built with, and a page asked for with a cursor is the last one.
import { randomBytes } from 'node:crypto';
import { engine } from './engine.js';

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** A caller's own `X-Request-Id` is kept when the contract accepts it, as the server keeps it. */
const acceptableId = /^[A-Za-z0-9._:-]{8,128}$/;
const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** Framing, which is the mock's own, and the replay header Prism sets on every answer. */
const dropped = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'idempotent-replayed']);

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The request's id: the caller's, or a new `req_` id in the server's form (a ULID after the prefix). */
export function requestIdOf(incoming: string | string[] | undefined): string {
  if (typeof incoming === 'string' && acceptableId.test(incoming)) return incoming;
  let time = '';
  for (let t = Date.now(), i = 0; i < 10; i += 1, t = Math.floor(t / 32)) time = alphabet[t % 32] + time;
  return `req_${time}${Array.from(randomBytes(16), (b) => alphabet[b % 32]).join('')}`;
}

export interface Reshape {
  requestId: string;
  /** The request's path, a problem's `instance`. */
  path: string;
  /** The request asked for a page after the first (it sent a `cursor`). */
  lastPage: boolean;
}

export function reshape(answer: Answer, { requestId, path, lastPage }: Reshape): Answer {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers)) if (!dropped.has(name)) headers[name] = value;
  headers['x-request-id'] = requestId;
  const json = /[/+]json\b/.test(headers['content-type'] ?? '') ? parse(answer.body) : undefined;
  if (!isObject(json)) return withBody({ ...answer, headers }, answer.body);
  if (headers['content-type']!.startsWith('application/problem+json')) Object.assign(json, { instance: path, request_id: requestId });
  if (answer.status === 200) reshapeSuccess(json, lastPage);
  return withBody({ ...answer, headers }, Buffer.from(JSON.stringify(json)));
}

function reshapeSuccess(json: Json, lastPage: boolean): void {
  const metadata = json.metadata;
  // As a server with no model-backed verifier answers, generated results too: the checks decided every claim.
  if (isObject(metadata) && isObject(metadata.engine))
    metadata.engine = { method: engine.method, version: engine.version, verifier: 'none' };
  if (Array.isArray(json.claims)) for (const claim of json.claims) if (isObject(claim)) claim.verifier = 'deterministic';
  if (isObject(json.validation_method)) Object.assign(json.validation_method, { name: engine.method, version: engine.version });
  // The examples are a first page; the page after it ends the list.
  if (lastPage && Array.isArray(json.data) && 'has_more' in json) Object.assign(json, { data: [], has_more: false, next_cursor: null });
}

/** The answer with this body and its length. */
export function withBody(answer: Answer, body: Buffer): Answer {
  return { ...answer, headers: { ...answer.headers, 'content-length': String(body.length) }, body };
}

function parse(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}
