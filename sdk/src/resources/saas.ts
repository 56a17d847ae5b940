import type {
  BillingPortalRequest,
  BillingPortalSession,
  DeletedUser,
  User,
  UserDeleteRequest,
  UserPage,
  UserQuery,
} from '@groundcheck/contract';
import { iteratePages } from '../pagination.js';
import { type RequestOptions, type Transport, unwrap } from '../request.js';
import type { WithResponse } from '../response.js';
import type { RequestBody } from '../types.js';

// saas/* needs a signed-in admin's bearer token; API keys are not accepted here.

/** The tenant's local users, ordered by email. */
export class Users {
  constructor(private readonly transport: Transport) {}

  async list(query?: UserQuery, options?: RequestOptions): Promise<WithResponse<UserPage>> {
    return unwrap(await this.transport.raw.POST('/api/v1/saas/users', { body: query, ...this.transport.init(options) }));
  }

  iterate(query: UserQuery = {}, options?: RequestOptions): AsyncGenerator<User, void, undefined> {
    return iteratePages((page) => this.list(page, options), query);
  }

  /** Creates a user (no `user_id`; `email` and `role` required) or updates the fields given. */
  async save(body: RequestBody<'UserSaveRequest'>, options?: RequestOptions): Promise<WithResponse<User>> {
    return unwrap(await this.transport.raw.POST('/api/v1/saas/users/save', { body, ...this.transport.init(options) }));
  }

  async delete(body: UserDeleteRequest, options?: RequestOptions): Promise<WithResponse<DeletedUser>> {
    return unwrap(await this.transport.raw.POST('/api/v1/saas/users/delete', { body, ...this.transport.init(options) }));
  }
}

export class Saas {
  readonly users: Users;

  constructor(private readonly transport: Transport) {
    this.users = new Users(transport);
  }

  /** A short-lived link to the payment provider's billing portal. */
  async billingPortal(body?: BillingPortalRequest, options?: RequestOptions): Promise<WithResponse<BillingPortalSession>> {
    return unwrap(await this.transport.raw.POST('/api/v1/saas/billing-portal', { body, ...this.transport.init(options) }));
  }
}
