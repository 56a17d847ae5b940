// Idempotency records: the first response to a tenant's Idempotency-Key, kept for 24 hours. Creating
// the record is the lock, so of two concurrent requests with one key only one runs its handler. The
// holder keeps a lease that it renews while it works; a retry of the same request after the lease ran
// out (the holder's process died) takes the key over, with the same bound id, every change guarded by
// the record's ETag so that two tries never hold the key at once.
import { randomUUID } from 'node:crypto';
import type { Container } from '@azure/cosmos';
import { sha256Hex } from '../lib/hash.js';
import { newUlid } from '../lib/ids.js';
import type { ClaimResult, HeldKey, IdempotencyKeys, IdempotencyRecord, StoredResponse } from '../ports/idempotency-keys.js';
import { daysToSeconds } from './containers.js';
import { cosmosOutcome } from './cosmos-status.js';

export const idempotencyWindowSeconds = daysToSeconds(1);
/** Decision S95: a holder that has not renewed for this long is taken for dead. */
export const defaultLeaseMs = 15_000;
/** Records written before leases had none: their holder was given this long, from its start. */
const leaselessGraceMs = 10 * 60 * 1000;

const isConflict = (error: unknown) => cosmosOutcome(error) === 'conflict';
const isGone = (error: unknown) => cosmosOutcome(error) === 'not_found' || cosmosOutcome(error) === 'precondition_failed';
const ifMatch = (etag: string) => ({ accessCondition: { type: 'IfMatch', condition: etag } });

export class IdempotencyStore implements IdempotencyKeys {
  constructor(
    private readonly container: Container,
    readonly leaseMs = defaultLeaseMs,
  ) {}

  static recordId(key: string): string {
    return sha256Hex(key);
  }

  async claim(customerId: string, key: string, operationId: string, fingerprint: string, now: Date): Promise<ClaimResult> {
    const fresh: IdempotencyRecord = {
      id: IdempotencyStore.recordId(key),
      customer_id: customerId,
      kind: 'idempotency',
      operation_id: operationId,
      fingerprint,
      state: 'in_progress',
      bound_id: newUlid(now.getTime()),
      owner: randomUUID(),
      lease_until: this.leaseFrom(now),
      response: null,
      created_at: now.toISOString(),
      ttl: idempotencyWindowSeconds,
    };
    // A race lost to another claim or takeover is claimed again: a few rounds settle it.
    for (let round = 0; round < 5; round += 1) {
      try {
        const { etag } = await this.container.items.create(fresh);
        return { claimed: true, held: { record: fresh, etag: etag!, takenOver: false } };
      } catch (error) {
        if (!isConflict(error)) throw error;
      }
      const { resource: existing, etag } = await this.container.item(fresh.id, customerId).read<IdempotencyRecord>();
      const settled = existing && (await this.claimExisting(existing, etag!, fresh, now));
      if (settled) return settled;
    }
    throw new Error(`idempotency key of ${customerId} kept changing while it was claimed`);
  }

  /**
   * The claim of a key whose record exists: a fresh start a day later, a takeover of a lease run out
   * by the same request, or else the record as it is. Null when the record changed meanwhile.
   */
  private async claimExisting(existing: IdempotencyRecord, etag: string, fresh: IdempotencyRecord, now: Date): Promise<ClaimResult | null> {
    // A day later the key is free for a new request: a new record, a new bound id.
    if (now.getTime() - Date.parse(existing.created_at) >= idempotencyWindowSeconds * 1000) {
      const replaced = await this.replace(fresh, etag);
      return replaced ? { claimed: true, held: { record: fresh, etag: replaced, takenOver: false } } : null;
    }
    if (existing.fingerprint !== fresh.fingerprint || existing.state !== 'in_progress' || now < leaseEnd(existing)) {
      return { claimed: false, record: existing };
    }
    // The holder stopped renewing (or gave the key up after a failure): this try takes over its bound id.
    const takeover: IdempotencyRecord = {
      ...existing,
      bound_id: existing.bound_id ?? fresh.bound_id,
      owner: fresh.owner,
      lease_until: fresh.lease_until,
    };
    const replaced = await this.replace(takeover, etag);
    return replaced ? { claimed: true, held: { record: takeover, etag: replaced, takenOver: true } } : null;
  }

  async renew(held: HeldKey, now: Date): Promise<boolean> {
    const record = { ...held.record, lease_until: this.leaseFrom(now) };
    const etag = await this.replace(record, held.etag);
    if (!etag) return false;
    held.record = record;
    held.etag = etag;
    return true;
  }

  /** Stores the response the handler produced; replays are served from it until the record expires. */
  async complete(held: HeldKey, response: StoredResponse): Promise<void> {
    const record: IdempotencyRecord = { ...held.record, state: 'completed', owner: null, lease_until: null, response };
    // Unguarded: a try that lost its lease wrote the same outcome under the same bound id.
    await this.container.item(record.id, record.customer_id).replace(record);
  }

  async release(held: HeldKey): Promise<void> {
    await this.replace({ ...held.record, owner: null, lease_until: new Date(0).toISOString() }, held.etag);
  }

  /** Replaces the record if it is still the version `etag` names; the new ETag, or null when it changed or went. */
  private async replace(record: IdempotencyRecord, etag: string): Promise<string | null> {
    try {
      const { etag: next } = await this.container.item(record.id, record.customer_id).replace(record, ifMatch(etag));
      return next!;
    } catch (error) {
      if (isGone(error)) return null;
      throw error;
    }
  }

  private leaseFrom(now: Date): string {
    return new Date(now.getTime() + this.leaseMs).toISOString();
  }
}

/** When the holder's lease ends. */
function leaseEnd(record: IdempotencyRecord): Date {
  return record.lease_until ? new Date(record.lease_until) : new Date(Date.parse(record.created_at) + leaselessGraceMs);
}
