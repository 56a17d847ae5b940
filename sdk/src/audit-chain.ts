// Offline verification of the audit trail's hash chain (AuditEvent in openapi.yaml): each event's
// `hash` is the SHA-256 of its `prev_hash` followed by the canonical JSON of every field but `hash`
// and `expires_at`. Runs wherever Web Crypto does (browsers, Node 20+, Deno, workers).
import { type AuditEvent, canonicalJson } from '@groundcheck/contract';

export type AuditChainResult =
  | { valid: true; checked: number }
  | {
      valid: false;
      /** Events verified before the first bad one. */
      checked: number;
      firstBadSequence: number;
      reason: 'hash_mismatch' | 'broken_link' | 'sequence_gap' | 'out_of_order';
    };

export interface VerifyAuditChainOptions {
  /** The `hash` of the event just before `events[0]`, when verifying a page that does not start the trail. */
  previousHash?: string;
}

const genesisHash = '0'.repeat(64);

/**
 * Checks that `events` (in the order received, oldest first) form an unbroken chain: consecutive
 * sequence numbers, each `prev_hash` equal to the hash before it, and each hash matching the
 * event's content. Without `options.previousHash`, a first event with sequence 1 must start from 64
 * zeros; a later first event's own `prev_hash` is taken as the starting point.
 */
export async function verifyAuditChain(events: AuditEvent[], options: VerifyAuditChainOptions = {}): Promise<AuditChainResult> {
  let expectedPrevious = options.previousHash ?? (events[0]?.sequence === 1 ? genesisHash : events[0]?.prev_hash);
  for (const [index, event] of events.entries()) {
    const fail = (reason: Extract<AuditChainResult, { valid: false }>['reason']): AuditChainResult => ({
      valid: false,
      checked: index,
      firstBadSequence: event.sequence,
      reason,
    });
    const before = events[index - 1];
    if (before && event.sequence !== before.sequence + 1) {
      // An event whose place lies back or among those still to come was moved, not lost.
      const moved =
        event.sequence <= before.sequence ||
        events.slice(index + 1).some((later) => later.sequence > before.sequence && later.sequence < event.sequence);
      return fail(moved ? 'out_of_order' : 'sequence_gap');
    }
    if (event.prev_hash !== expectedPrevious) return fail('broken_link');
    if ((await eventHash(event)) !== event.hash) return fail('hash_mismatch');
    expectedPrevious = event.hash;
  }
  return { valid: true, checked: events.length };
}

async function eventHash(event: AuditEvent): Promise<string> {
  const { hash: _hash, expires_at: _expiresAt, ...hashed } = event;
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error('verifyAuditChain needs Web Crypto (globalThis.crypto.subtle)');
  const digest = await subtle.digest('SHA-256', new TextEncoder().encode(event.prev_hash + canonicalJson(hashed)));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
