// Keyed pseudonyms of actors for the enterprise_v1 export (decision 46): `act_` + 32 hex chars of
// HMAC-SHA-256(tenant secret, actor id). Stable across exports, different per tenant, and not
// reversible by hashing a list of known emails or ids, because the secret never leaves Cosmos.
import { createHmac, randomBytes } from 'node:crypto';
import type { AuditStore } from '../../cosmos/audit-store.js';

export type Pseudonymize = (actorId: string) => string;

export class Pseudonyms {
  private readonly secrets = new Map<string, Promise<Buffer>>();

  constructor(private readonly store: AuditStore) {}

  /** The tenant's pseudonym function; its secret is created on first use and cached. */
  async forTenant(customerId: string): Promise<Pseudonymize> {
    const secret = await this.secretOf(customerId);
    return (actorId) => `act_${createHmac('sha256', secret).update(actorId).digest('hex').slice(0, 32)}`;
  }

  private secretOf(customerId: string): Promise<Buffer> {
    let secret = this.secrets.get(customerId);
    if (!secret) {
      secret = this.loadOrCreate(customerId);
      this.secrets.set(customerId, secret);
      // A failed load is not cached, so the next export tries again.
      secret.catch(() => this.secrets.delete(customerId));
    }
    return secret;
  }

  private async loadOrCreate(customerId: string): Promise<Buffer> {
    return (await this.store.readPseudonymSecret(customerId)) ?? this.store.createPseudonymSecret(customerId, randomBytes(32));
  }
}
