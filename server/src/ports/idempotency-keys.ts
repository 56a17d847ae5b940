// The port through which the HTTP pipeline holds an Idempotency-Key while its request runs and keeps
// the first answer to it: what it needs of a store, so that http/ does not depend on Cosmos DB
// (cosmos/idempotency-store.ts is the adapter).

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
  /** A ULID fixed when the key is first claimed: what the request creates is named by it, on every try. */
  bound_id: string;
  /** The try that holds the key while it runs (a random token), null once completed. */
  owner: string | null;
  /** Until when the owner holds the key (ISO) unless it renews the lease; a retry after that takes the key over. */
  lease_until: string | null;
  response: StoredResponse | null;
  created_at: string;
  ttl: number;
}

/** A key this process holds: the record as last written, with its ETag. */
export interface HeldKey {
  record: IdempotencyRecord;
  etag: string;
  /** This try took the key over from one that stopped renewing it or failed: what that one wrote may exist. */
  takenOver: boolean;
}

export type ClaimResult = { claimed: true; held: HeldKey } | { claimed: false; record: IdempotencyRecord };

export interface IdempotencyKeys {
  /** How long a claim holds the key without renewal. */
  readonly leaseMs: number;
  /**
   * Creates the key's record (the lock); takes it over when its lease ran out and the same request
   * comes again; otherwise returns the record that is there.
   */
  claim(customerId: string, key: string, operationId: string, fingerprint: string, now: Date): Promise<ClaimResult>;
  /** Extends the lease from `now`; false when another try has taken the key over. */
  renew(held: HeldKey, now: Date): Promise<boolean>;
  /** Keeps the answer of the request that holds the key. */
  complete(held: HeldKey, response: StoredResponse): Promise<void>;
  /** Ends the lease at once, keeping the bound id: a retry takes the key over and finds what this try wrote. */
  release(held: HeldKey): Promise<void>;
}
