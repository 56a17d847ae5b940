import type { Tenant } from './tenant.js';

export class TenantRegistry {
  private readonly byId: Map<string, Tenant>;

  constructor(readonly all: Tenant[]) {
    this.byId = new Map(all.map((tenant) => [tenant.customerId, tenant]));
  }

  get(customerId: string): Tenant | null {
    return this.byId.get(customerId) ?? null;
  }

  /** The OIDC tenant whose identity provider issued a token for this audience. */
  byIssuer(issuer: string, audiences: string[]): Tenant | null {
    return this.all.find((t) => t.auth.oidc?.issuer === issuer && audiences.includes(t.auth.oidc.audience)) ?? null;
  }
}
