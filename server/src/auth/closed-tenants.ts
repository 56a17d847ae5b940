// Whether a tenant's account was deleted (or is being deleted): from the deletion marker on, its
// logins, tokens and API keys are refused. The marker is read on every call, so another server
// process sees a deletion at once; a closed tenant never reopens, so that answer is kept.
import type { TenantStateStore } from '../store/tenant-state-store.js';
import type { Tenant } from '../tenants/tenant.js';

export class ClosedTenants {
  private readonly closed = new Set<string>();

  constructor(private readonly state: TenantStateStore) {}

  async has(customerId: string): Promise<boolean> {
    if (this.closed.has(customerId)) return true;
    if (!(await this.state.deletionMarker(customerId))) return false;
    this.closed.add(customerId);
    return true;
  }

  /** The tenants whose account is not deleted. */
  async open(tenants: readonly Tenant[]): Promise<Tenant[]> {
    const closed = await Promise.all(tenants.map((tenant) => this.has(tenant.customerId)));
    return tenants.filter((_, i) => !closed[i]);
  }
}
