// Sign-in through the tenant's identity provider: authorization code with PKCE, by oidc-client-ts,
// loaded only on this path. OidcClient rather than UserManager, so that the token lives in one place,
// the session store, and sign-out or expiry leaves no second copy behind. oidc-client-ts keeps the
// PKCE verifier and the state in this tab's sessionStorage between the two halves; the tenant's
// provider settings wait beside them, because the callback page cannot know which tenant it serves.
import { OidcClient } from 'oidc-client-ts';
import { sessionStore } from './session-store';
import type { IdentityProvider } from './sign-in-options';

const pendingKey = 'groundcheck.oidc-sign-in';

interface PendingSignIn {
  customerId: string;
  provider: IdentityProvider;
}

/** What the sign-in carries through the provider and back: the console page to open afterwards. */
interface SignInState {
  next: string;
}

function clientFor(provider: IdentityProvider): OidcClient {
  return new OidcClient({
    authority: provider.issuer,
    client_id: provider.client_id,
    redirect_uri: provider.redirect_uri,
    response_type: 'code',
    scope: provider.scope,
    // RFC 8707: asked for on both requests, so the access token is issued for the API's audience
    // whether the provider takes the indicator from the authorization or the token request.
    ...(provider.resource ? { resource: provider.resource, extraTokenParams: { resource: provider.resource } } : {}),
    loadUserInfo: false,
  });
}

/** Leaves for the provider's sign-in; the console comes back at /sign-in/callback. */
export async function startOidcSignIn(customerId: string, provider: IdentityProvider, next: string): Promise<void> {
  const state: SignInState = { next };
  const request = await clientFor(provider).createSigninRequest({ state });
  const pending: PendingSignIn = { customerId, provider };
  sessionStorage.setItem(pendingKey, JSON.stringify(pending));
  window.location.assign(request.url);
}

/** Exchanges the code the provider sent back for the access token and starts the session; returns the page to open. */
export async function finishOidcSignIn(url: string): Promise<string | null> {
  const stored = sessionStorage.getItem(pendingKey);
  if (!stored) throw new Error('No sign-in through an identity provider is under way in this tab. Start again from the sign-in page.');
  const { customerId, provider } = JSON.parse(stored) as PendingSignIn;
  try {
    const response = await clientFor(provider).processSigninResponse(url);
    const token = response.access_token;
    sessionStore.start({ token, expiresAt: expiryOf(token), customerId, authentication: 'oidc' });
    return (response.userState as SignInState | undefined)?.next ?? null;
  } finally {
    sessionStorage.removeItem(pendingKey);
  }
}

/**
 * When the API stops accepting the access token: its `exp`. The API accepts only JWT access tokens, so
 * one that is not tells the person at once that the tenant's provider settings are wrong, instead of
 * every call being refused.
 */
function expiryOf(token: string): string {
  const payload = token.split('.')[1];
  try {
    const { exp } = JSON.parse(atob(payload!.replaceAll('-', '+').replaceAll('_', '/'))) as { exp?: unknown };
    if (typeof exp === 'number') return new Date(exp * 1000).toISOString();
  } catch {
    // Reported below, like a token without an expiry.
  }
  throw new Error(
    'The identity provider sent an access token the API cannot accept (not a JWT with an expiry). Ask your administrator to check the identity provider settings for this customer id.',
  );
}
