import type { Role } from '../contract/roles.js';
import type { Tenant } from '../tenants/tenant.js';

/** Who is calling: a user (local or OIDC) or an API key, always within one tenant. */
export interface Principal {
  type: 'user' | 'api_key';
  /** `usr_…` for local users, `sub:<subject>` for OIDC users, `key_<id>` for API keys. */
  id: string;
  name: string | null;
  email: string | null;
  role: Role;
  dataAccessRoles: string[];
  authentication: 'local' | 'oidc' | 'api_key';
  expiresAt: Date | null;
  tenant: Tenant;
}
