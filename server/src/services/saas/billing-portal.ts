// POST /api/v1/saas/billing-portal (section 4.7, decision row 36): a short-lived link to the
// payment provider's customer portal for the tenant's customer there. Without a provider key in
// the environment or a customer id in the tenant file, the portal does not exist: 404.

import type { BillingPortalRequest, BillingPortalSession } from '@groundcheck/contract';
import { NotFoundError } from '../../errors.js';
import type { Caller } from '../call-context.js';

/** The payment provider, behind the one call this server makes to it. */
export interface BillingProvider {
  createPortalSession(request: { customerId: string; returnUrl?: string }): Promise<{ url: string; createdAt: Date }>;
}

/**
 * How long the link is announced as valid. The provider's session carries no expiry of its own;
 * its links are meant to be opened at once, and a client should ask for a new one otherwise.
 */
const linkLifetimeMs = 5 * 60 * 1000;

export class BillingPortalService {
  /** `provider` is null when the deployment has no payment provider key. */
  constructor(private readonly provider: BillingProvider | null) {}

  async open(ctx: Caller, request: BillingPortalRequest): Promise<BillingPortalSession> {
    const customerId = ctx.tenant.billing?.stripeCustomerId;
    if (!this.provider || !customerId) {
      throw new NotFoundError('billing_not_configured', 'This deployment has no billing portal for this tenant.');
    }
    const session = await this.provider.createPortalSession({ customerId, returnUrl: request.return_url });
    return { url: session.url, expires_at: new Date(session.createdAt.getTime() + linkLifetimeMs).toISOString() };
  }
}
