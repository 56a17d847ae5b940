// Local login and the caller's identity (section 4.1).

import type { LoginRequest, LoginResponse, Me } from '@groundcheck/contract';
import type { UserStore } from '../../cosmos/user-store.js';
import { AuthenticationError, NotFoundError, RateLimitError } from '../../errors.js';
import type { TenantRegistry } from '../../tenants/registry.js';
import { type CallContext, callerOf } from '../call-context.js';
import type { ClosedTenants } from './closed-tenants.js';
import type { LocalTokens } from './local-tokens.js';
import { tokenLifetimeSeconds } from './local-tokens.js';
import type { LoginThrottle } from './login-throttle.js';
import { verifyAgainstDecoy, verifyPassword } from './passwords.js';

// One answer for every refusal, a closed account's included (decision S100): its users are gone, so
// nobody can prove a password to be told more, and anyone could otherwise probe which accounts closed.
const invalidCredentials = () =>
  new AuthenticationError('invalid_credentials', 'The email, password or customer id is incorrect, or the account was closed.');

export class AuthService {
  constructor(
    private readonly tenants: TenantRegistry,
    private readonly users: UserStore,
    private readonly tokens: LocalTokens,
    private readonly throttle: LoginThrottle,
    private readonly closedTenants: ClosedTenants,
  ) {}

  async login(request: LoginRequest, ctx: CallContext): Promise<LoginResponse> {
    const now = ctx.clock.now();
    const clientAddress = ctx.clientAddress;
    // A deleted account signs in no one and answers as an unknown tenant does (asked for unknown ones too: same time).
    const closed = await this.closedTenants.has(request.customer_id);
    const registered = this.tenants.get(request.customer_id);
    const tenant = registered && !closed ? registered : null;
    if (tenant && !tenant.auth.local) {
      throw new NotFoundError('local_login_disabled', 'This tenant signs in through its identity provider, not with a password.');
    }
    const account = `${request.customer_id}/${request.email.toLowerCase()}`;
    const wait = await this.throttle.retryAfter(account, clientAddress, now.getTime());
    if (wait > 0) throw new RateLimitError('too_many_login_attempts', `Too many failed sign-in attempts; retry in ${wait} seconds.`, wait);

    // An unknown tenant costs the same query as a known one (decision S5): timing tells nothing.
    const found = await this.users.findByEmail(request.customer_id, request.email);
    const user = tenant ? found : null;
    const usable = user && user.status === 'active' && user.password_hash;
    const valid = usable ? await verifyPassword(request.password, user.password_hash!) : await verifyAgainstDecoy(request.password);
    if (!valid || !user) {
      await this.throttle.recordFailure(account, clientAddress, now.getTime());
      throw invalidCredentials();
    }
    await this.throttle.recordSuccess(account, clientAddress, now.getTime());
    await this.users.recordLogin(user, now);
    const { token, expiresAt } = await this.tokens.issue(user.id, user.customer_id, user.session_epoch ?? 0, now);
    return { token, token_type: 'Bearer', expires_in: tokenLifetimeSeconds, expires_at: expiresAt.toISOString() };
  }

  me(ctx: CallContext): Me {
    const { principal, tenant } = callerOf(ctx);
    return {
      principal: {
        type: principal.type,
        id: principal.id,
        ...(principal.email ? { email: principal.email } : {}),
        ...(principal.name ? { name: principal.name } : {}),
      },
      customer: { customer_id: tenant.customerId, name: tenant.name, features: tenant.features },
      role: principal.role,
      data_access_roles: principal.dataAccessRoles,
      authentication: principal.authentication,
      expires_at: principal.expiresAt?.toISOString() ?? null,
    };
  }
}
