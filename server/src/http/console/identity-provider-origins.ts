// The identity providers the console signs people in through: the browser fetches each one's discovery
// document and exchanges the code at its token endpoint, so their origins join the console's connect-src.
import type { Tenant } from '../../tenants/tenant.js';

export function identityProviderOrigins(tenants: readonly Tenant[]): string[] {
  const origins = tenants.flatMap((tenant) => (tenant.auth.oidc?.console ? [new URL(tenant.auth.oidc.issuer).origin] : []));
  return [...new Set(origins)];
}
