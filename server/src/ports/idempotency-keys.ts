// The port through which the HTTP pipeline keeps the first answer to an Idempotency-Key: what it
// needs of a store, so that http/ does not depend on Cosmos DB (cosmos/idempotency-store.ts is the adapter).

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  /** The body, base64-encoded so any content type survives. */
  body: string;
}

export interface IdempotencyRecord {
  /** SHA-256 of the key: keys may hold characters that Cosmos ids may not. */
  id: string;
  customer_id: string;
  kind: 'idempotency';
  operation_id: string;
  /** Who sent the request and what it asked, hashed; a key reused for anything else is refused. */
  fingerprint: string;
  state: 'in_progress' | 'completed';
  response: StoredResponse | null;
  created_at: string;
  ttl: number;
}

export type ClaimResult = { claimed: true; record: IdempotencyRecord } | { claimed: false; record: IdempotencyRecord };

export interface IdempotencyKeys {
  /** Creates the key's record (the lock) or returns the one already there. */
  claim(customerId: string, key: string, operationId: string, fingerprint: string, now: Date): Promise<ClaimResult>;
  /** Keeps the answer of the request that holds the key. */
  complete(record: IdempotencyRecord, response: StoredResponse): Promise<void>;
  /** Gives the key up, so that a retry runs again. */
  release(record: IdempotencyRecord): Promise<void>;
}
