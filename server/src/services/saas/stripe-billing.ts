// The billing provider on Stripe, through its official SDK: one call, a customer portal session.
// The SDK talks to the provider's fixed API host (never an address from tenant configuration), so
// it uses its own HTTP client rather than the outbound guard; tests point it at a loopback stand-in.
import Stripe from 'stripe';
import { UnavailableError } from '../../errors.js';
import type { BillingProvider } from './billing-portal.js';

/** Where the SDK sends its requests; only tests change it. */
export interface StripeEndpoint {
  host: string;
  port: number;
  protocol: 'http' | 'https';
}

export function stripeBillingProvider(secretKey: string, endpoint?: StripeEndpoint): BillingProvider {
  const stripe = new Stripe(secretKey, {
    // A user waits on this call: give up well before a browser would, retrying twice (with idempotency keys).
    timeout: 10_000,
    maxNetworkRetries: 2,
    telemetry: false,
    appInfo: { name: 'groundcheck' },
    ...endpoint,
  });
  return {
    async createPortalSession({ customerId, returnUrl }) {
      try {
        const session = await stripe.billingPortal.sessions.create({
          customer: customerId,
          ...(returnUrl === undefined ? {} : { return_url: returnUrl }),
        });
        return { url: session.url, createdAt: new Date(session.created * 1000) };
      } catch (error) {
        throw providerError(error);
      }
    },
  };
}

/**
 * An outage or throttling of the provider is a 503 the caller may retry; anything else (a revoked
 * key, an unknown customer) is this deployment's misconfiguration, logged as a 500 by its type and
 * the provider's request id only, so that no key or customer data reaches the log.
 */
function providerError(error: unknown): Error {
  if (
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeRateLimitError ||
    error instanceof Stripe.errors.StripeAPIError
  ) {
    return new UnavailableError('service_unavailable', 'The payment provider is not answering; retry in a minute.', 60);
  }
  if (error instanceof Stripe.errors.StripeError) {
    return new Error(
      `the payment provider refused the portal session: ${error.type} ${error.code ?? ''} (status ${error.statusCode ?? 'none'}, request ${error.requestId ?? 'none'})`,
    );
  }
  return new Error('the payment provider call failed', { cause: error });
}
