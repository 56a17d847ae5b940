// GET /console/sign-in-options?customer_id=acme: how the console's sign-in page signs in the people of
// a customer id, with local accounts or through the tenant's identity provider (and which one). It is
// part of the console, not an operation of the API: what it answers comes from the tenant file, for the
// console's own use. A customer id no tenant has is answered like a tenant with local accounts, so the
// route cannot tell anyone which tenants exist; like the API's other calls without credentials it is
// counted against the caller's address.
import type { Request, RequestHandler } from 'express';
import type { Contract } from '../../contract/contract.js';
import { BadRequestError, RateLimitError } from '../../errors.js';
import type { TenantRegistry } from '../../tenants/registry.js';
import type { Tenant } from '../../tenants/tenant.js';
import type { RateLimiter } from '../rate-limiter.js';

/** The contract's `CustomerId` pattern, read from the contract itself. */
function customerIdPatternOf(contract: Contract): RegExp {
  const schemas = (contract.document as { components: { schemas: Record<string, { pattern?: string }> } }).components.schemas;
  return new RegExp(schemas.CustomerId!.pattern!);
}

/** As many field errors as a problem of the API lists at most. */
const maxFieldErrors = 20;

export interface SignInOptions {
  /** Email and password through POST /auth/login. */
  local: boolean;
  /** Authorization code with PKCE against this issuer, for the console's public client. */
  identity_provider: { issuer: string; client_id: string; redirect_uri: string; scope: string; resource: string | null } | null;
}

const localSignIn: SignInOptions = { local: true, identity_provider: null };

export function signInOptionsOf(tenant: Tenant | null): SignInOptions {
  const oidc = tenant?.auth.oidc;
  if (!tenant || !oidc?.console) return localSignIn;
  const { clientId, redirectUri, scope, resource } = oidc.console;
  return {
    local: tenant.auth.local !== null,
    identity_provider: { issuer: oidc.issuer, client_id: clientId, redirect_uri: redirectUri, scope, resource },
  };
}

export interface AnonymousLimit {
  limiter: RateLimiter;
  /** Requests per minute from one address without credentials, shared with POST /auth/login. */
  requestsPerMinute: number;
}

export function signInOptionsRoute(
  tenants: TenantRegistry,
  { limiter, requestsPerMinute }: AnonymousLimit,
  contract: Contract,
): RequestHandler {
  const customerIdPattern = customerIdPatternOf(contract);
  return async (req, res) => {
    // Counted before the query is read, so that a refused request costs the same as an answered one.
    const state = await limiter.consume(
      { partition: `address:${req.ip ?? 'unknown'}`, name: 'anonymous' },
      { requests: requestsPerMinute, windowSeconds: 60 },
      req.ctx.clock.now().getTime(),
    );
    if (!state.allowed) {
      throw new RateLimitError(
        'rate_limited',
        `This address's limit of ${state.limit} requests per minute without credentials is used up; retry in ${state.reset} seconds.`,
        state.reset,
      );
    }
    res.json(signInOptionsOf(tenants.get(customerIdOf(req, customerIdPattern))));
  };
}

function customerIdOf(req: Request, customerIdPattern: RegExp): string {
  const query = req.query as Record<string, unknown>;
  const unknown = Object.keys(query).filter((name) => name !== 'customer_id');
  if (unknown.length > 0) {
    throw new BadRequestError(
      'invalid_request',
      `The request has ${unknown.length} ${unknown.length === 1 ? 'parameter' : 'parameters'} this path does not take.`,
      unknown.slice(0, maxFieldErrors).map((name) => ({ pointer: `query:${name}`, detail: 'is not a known parameter' })),
    );
  }
  const customerId = query.customer_id;
  const detail =
    customerId === undefined
      ? 'is required'
      : typeof customerId !== 'string'
        ? 'must be sent once'
        : customerIdPattern.test(customerId)
          ? null
          : 'must be a customer id: 2 to 64 lowercase letters, digits, _ or -, starting with a letter or digit';
  if (detail)
    throw new BadRequestError('invalid_request', 'The customer id is missing or not valid.', [{ pointer: 'query:customer_id', detail }]);
  return customerId as string;
}
