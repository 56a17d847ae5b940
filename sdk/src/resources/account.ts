import type { AccountDeleteRequest, DeletedAccount } from '../generated/schemas.js';
import { type RequestOptions, type Transport, unwrap } from '../request.js';
import type { WithResponse } from '../response.js';

// account/* needs a signed-in admin's bearer token; API keys are not accepted here.

export class Account {
  constructor(private readonly transport: Transport) {}

  /** The tenant's data as a ZIP of JSON Lines files; use `blob.arrayBuffer()` or `blob.stream()`. */
  async export(options?: RequestOptions): Promise<WithResponse<Blob>> {
    return unwrap(await this.transport.raw.POST('/api/v1/account/export', { parseAs: 'blob', ...this.transport.init(options) }));
  }

  /**
   * Deletes all of the tenant's data; `confirmation` must be exactly `DELETE <customer_id>`. Never
   * retried: the tenant's credentials stop working the moment the deletion is accepted, so a retry
   * after a lost answer could only be refused. After a ConnectionError or TimeoutError, sign in again:
   * if that is refused, the deletion was accepted.
   */
  async delete(body: AccountDeleteRequest, options?: RequestOptions): Promise<WithResponse<DeletedAccount>> {
    return unwrap(await this.transport.raw.POST('/api/v1/account/delete', { body, ...this.transport.init({ ...options, maxRetries: 0 }) }));
  }
}
