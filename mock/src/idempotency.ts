// Idempotency-Key as the server keeps it (server/src/http/idempotency.ts), per mock instance and in
// memory: the first answer for a key is kept for 24 hours; the same request with the key again gets
// that answer with `Idempotent-Replayed: true`, another request with it the contract's 409
// `idempotency_key_reused`. Only answers the server's handlers give are kept (2xx, 404, 409): on the
// server, a request refused before its handler runs (401, 403, 413, 429, …) or failing with a 5xx
// leaves its key free.
import { createHash } from 'node:crypto';
import { canonicalJson } from '@groundcheck/contract';

/** The answer kept under a key, as the guard sends it. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export type Outcome = { kind: 'first' } | { kind: 'replay'; answer: StoredAnswer } | { kind: 'reused' };

const windowMs = 24 * 60 * 60 * 1000;
/** Keys kept at once; past it the oldest is forgotten, as the mock may serve a long test run. */
const maxKeys = 10_000;

export class IdempotencyKeys {
  private readonly entries = new Map<string, { fingerprint: string; answer: StoredAnswer; at: number }>();

  /** What a request with `key` gets, given what the key already holds. */
  look(key: string, fingerprint: string, now = Date.now()): Outcome {
    const entry = this.entries.get(key);
    if (!entry || now - entry.at >= windowMs) return { kind: 'first' };
    return entry.fingerprint === fingerprint ? { kind: 'replay', answer: entry.answer } : { kind: 'reused' };
  }

  /** Keeps the first answer for `key`, when the server would. */
  keep(key: string, fingerprint: string, answer: StoredAnswer, now = Date.now()): void {
    if (!kept(answer.status)) return;
    this.entries.delete(key);
    this.entries.set(key, { fingerprint, answer, at: now });
    if (this.entries.size > maxKeys) this.entries.delete(this.entries.keys().next().value!);
  }
}

const kept = (status: number) => status < 400 || status === 404 || status === 409;

/**
 * The same request: method, path and body (without credentials: the server drops them before it
 * compares). The mock cannot tell callers apart, so a key is the mock's, not a caller's.
 */
export function fingerprintOf(method: string, path: string, body: unknown): string {
  // Canonical JSON, as the server's: the order a client writes fields in does not matter.
  return createHash('sha256')
    .update(canonicalJson([method, path, body ?? {}]))
    .digest('hex');
}
