// How the people of a customer id sign in: with local accounts or through the tenant's identity
// provider. The console's own route answers it (server/src/http/console/sign-in-options.ts), not the
// API, so its shape is declared here rather than taken from the SDK.
import { errorFromResponse } from '@groundcheck/sdk';
import { useQuery } from '@tanstack/react-query';

export interface IdentityProvider {
  issuer: string;
  client_id: string;
  redirect_uri: string;
  scope: string;
  /** RFC 8707 resource indicator for an access token the API accepts; null when the provider needs none. */
  resource: string | null;
}

export interface SignInOptions {
  local: boolean;
  identity_provider: IdentityProvider | null;
}

/** The contract's CustomerId pattern: anything else is not looked up (the server would refuse it). */
const customerIdPattern = /^[a-z0-9][a-z0-9_-]{1,63}$/;

async function fetchSignInOptions(customerId: string, signal: AbortSignal): Promise<SignInOptions> {
  const query = new URLSearchParams({ customer_id: customerId });
  const response = await fetch(`${import.meta.env.BASE_URL}sign-in-options?${query}`, { signal, headers: { accept: 'application/json' } });
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) throw errorFromResponse(response, body);
  return body as SignInOptions;
}

/** The sign-in options of a customer id; idle while it is not a valid one. */
export function useSignInOptions(customerId: string) {
  return useQuery({
    queryKey: ['sign-in-options', customerId],
    queryFn: ({ signal }) => fetchSignInOptions(customerId, signal),
    enabled: customerIdPattern.test(customerId),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
