import type { LoginRequest, LoginResponse, Me } from '@groundcheck/contract';
import { type RequestOptions, type Transport, unwrap } from '../request.js';
import type { WithResponse } from '../response.js';

export class Auth {
  constructor(private readonly transport: Transport) {}

  /** Exchanges a local account's email and password for a bearer token (tenants with local login). */
  async login(body: LoginRequest, options?: RequestOptions): Promise<WithResponse<LoginResponse>> {
    return unwrap(await this.transport.raw.POST('/auth/login', { body, ...this.transport.init(options) }));
  }

  /** Who the caller is: principal, tenant and features, role and data-access roles. */
  async me(options?: RequestOptions): Promise<WithResponse<Me>> {
    return unwrap(await this.transport.raw.POST('/auth/me', this.transport.init(options)));
  }
}
