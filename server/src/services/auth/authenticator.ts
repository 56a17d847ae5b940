// Turns presented credentials into a Principal, or fails with the reason.

import type { Role } from '@groundcheck/contract';
import { decodeJwt, type JWTPayload } from 'jose';
import { isRole, roleRank } from '../../contract/roles.js';
import type { UserStore } from '../../cosmos/user-store.js';
import { AuthenticationError, PermissionError } from '../../errors.js';
import type { TenantRegistry } from '../../tenants/registry.js';
import type { Tenant } from '../../tenants/tenant.js';
import { findApiKey } from './api-keys.js';
import type { ClosedTenants } from './closed-tenants.js';
import { type LocalTokens, localIssuer } from './local-tokens.js';
import type { OidcVerifier } from './oidc.js';
import { type Principal, SecretString } from './principal.js';

const invalidToken = () => new AuthenticationError('invalid_token', 'The bearer token is not valid.');

export class Authenticator {
  constructor(
    private readonly tenants: TenantRegistry,
    private readonly users: UserStore,
    private readonly localTokens: LocalTokens,
    private readonly oidc: OidcVerifier,
    /** Tenants whose account was deleted: every credential of theirs is refused from the deletion marker on. */
    private readonly closedTenants: ClosedTenants,
  ) {}

  async fromBearer(token: string, now: Date): Promise<Principal> {
    let claims: JWTPayload;
    try {
      claims = decodeJwt(token);
    } catch {
      throw invalidToken();
    }
    if (claims.iss === localIssuer) return this.fromLocalToken(token, now);
    // Claims are read before the signature is checked, so each is taken only in its expected type.
    const audiences =
      typeof claims.aud === 'string'
        ? [claims.aud]
        : Array.isArray(claims.aud)
          ? claims.aud.filter((a): a is string => typeof a === 'string')
          : [];
    const tenant = typeof claims.iss === 'string' ? this.tenants.byIssuer(claims.iss, audiences) : null;
    if (!tenant) throw invalidToken();
    return this.fromOidcToken(token, tenant, now);
  }

  async fromApiKey(customerId: string, apiKey: string): Promise<Principal> {
    const tenant = this.tenants.get(customerId);
    const key = tenant ? findApiKey(tenant, apiKey) : null;
    if (!tenant || !key || (await this.closedTenants.has(tenant.customerId))) {
      throw new AuthenticationError('invalid_api_key', 'The customer_id and api_key do not match a valid API key.');
    }
    return {
      type: 'api_key',
      id: `key_${key.id}`,
      name: key.name,
      email: null,
      role: key.role,
      dataAccessRoles: [],
      authentication: 'api_key',
      expiresAt: null,
      tenant,
    };
  }

  private async fromLocalToken(token: string, now: Date): Promise<Principal> {
    const claims = await this.localTokens.verify(token, now);
    const tenant = this.tenants.get(claims.customerId);
    if (!tenant?.auth.local) throw invalidToken();
    // Read the user on every call, so that a removed or disabled user loses access at once.
    const [user, closed] = await Promise.all([this.users.get(tenant.customerId, claims.userId), this.closedTenants.has(tenant.customerId)]);
    // A password, role or status change since the token was issued ends its session.
    if (user?.status !== 'active' || closed || (user.session_epoch ?? 0) !== claims.sessionEpoch) throw invalidToken();
    return {
      type: 'user',
      id: user.id,
      name: user.name,
      email: user.email,
      role: user.role,
      dataAccessRoles: user.data_access_roles,
      authentication: 'local',
      expiresAt: claims.expiresAt,
      tenant,
    };
  }

  private async fromOidcToken(token: string, tenant: Tenant, now: Date): Promise<Principal> {
    const settings = tenant.auth.oidc!;
    const payload = await this.oidc.verify(token, tenant, now);
    if (await this.closedTenants.has(tenant.customerId)) throw invalidToken();
    if (typeof payload.sub !== 'string' || payload.sub === '') throw invalidToken();
    const role = highestRole(asStrings(claim(payload, settings.rolesClaim)).map((name) => settings.roleMapping.get(name)));
    if (!role) throw new PermissionError('insufficient_role', 'The token carries no role that this tenant maps to admin, user or viewer.');
    const name = claim(payload, settings.nameClaim);
    return {
      type: 'user',
      id: `sub:${payload.sub}`,
      name: typeof name === 'string' ? name : null,
      email: typeof payload.email === 'string' ? payload.email : null,
      role,
      dataAccessRoles: asStrings(claim(payload, settings.dataAccessRolesClaim)),
      authentication: 'oidc',
      expiresAt: new Date(payload.exp! * 1000),
      tenant,
      originalJwt: new SecretString(token),
    };
  }
}

/** A claim of the token's own, never one inherited from Object.prototype. */
function claim(payload: JWTPayload, name: string): unknown {
  return Object.hasOwn(payload, name) ? payload[name] : undefined;
}

/** A claim holding one value, a list, or a space-separated list (as OAuth scopes are). */
function asStrings(claim: unknown): string[] {
  if (typeof claim === 'string') return claim.split(' ').filter(Boolean);
  if (Array.isArray(claim)) return claim.filter((v): v is string => typeof v === 'string');
  return [];
}

function highestRole(roles: (Role | undefined)[]): Role | null {
  return roles.reduce<Role | null>((best, role) => (isRole(role) && (!best || roleRank(role) > roleRank(best)) ? role : best), null);
}
