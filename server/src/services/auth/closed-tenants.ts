// Whether a tenant's account was deleted (or is being deleted): from the deletion marker on, its
// logins, tokens and API keys are refused. The marker is read for every call, so another server
// process sees a deletion at once; calls of one tenant that arrive while a read is under way share
// it (one read per round trip, however many calls arrive). A closed tenant never reopens, so that
// answer is kept.
import type { TenantStateStore } from '../../cosmos/tenant-state-store.js';
import type { Tenant } from '../../tenants/tenant.js';

export class ClosedTenants {
  private readonly closed = new Set<string>();
  private readonly reading = new Map<string, Promise<boolean>>();

  constructor(private readonly state: TenantStateStore) {}

  async has(customerId: string): Promise<boolean> {
    if (this.closed.has(customerId)) return true;
    let read = this.reading.get(customerId);
    if (!read) {
      read = this.state.deletionMarker(customerId).then(
        (marker) => {
          this.reading.delete(customerId);
          if (marker) this.closed.add(customerId);
          return Boolean(marker);
        },
        (error: unknown) => {
          this.reading.delete(customerId);
          throw error;
        },
      );
      this.reading.set(customerId, read);
    }
    return read;
  }

  /** The tenants whose account is not deleted. */
  async open(tenants: readonly Tenant[]): Promise<Tenant[]> {
    const closed = await Promise.all(tenants.map((tenant) => this.has(tenant.customerId)));
    return tenants.filter((_, i) => !closed[i]);
  }
}
