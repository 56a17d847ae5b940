import { inspect } from 'node:util';
import type { Role } from '@groundcheck/contract';
import type { Tenant } from '../../tenants/tenant.js';

/**
 * A credential held in memory for one request. JSON, string conversion and `util.inspect` (which
 * loggers and error reports use) all show `[redacted]`; only `reveal()` gives the value.
 */
export class SecretString {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  toJSON(): string {
    return '[redacted]';
  }

  toString(): string {
    return '[redacted]';
  }

  [inspect.custom](): string {
    return '[redacted]';
  }
}

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
  /**
   * The identity provider's bearer token as the caller sent it, for `X-Service-Original-JWT`; set
   * only for OIDC callers (a local-login token is this server's own session credential and is never
   * forwarded). Kept in memory for the request, never stored.
   */
  originalJwt?: SecretString;
}
