// The one SDK client the console uses: this server's origin, the session's token, and a fetch that
// ends the session when the server refuses the token (expired, revoked, or the person disabled).
import { createClient, type GroundcheckClient } from '@groundcheck/sdk';
import { sessionStore } from '../session/session-store';

const sessionAwareFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const request = input instanceof Request ? input : null;
  const sentToken = request?.headers.has('authorization') ?? new Headers(init?.headers).has('authorization');
  if (response.status === 401 && sentToken) sessionStore.end('expired');
  return response;
};

export const api: GroundcheckClient = createClient({
  baseUrl: window.location.origin,
  token: () => sessionStore.token() ?? '',
  fetch: sessionAwareFetch,
});

/** A client without credentials, for signing in. */
export const anonymousApi: GroundcheckClient = createClient({ baseUrl: window.location.origin });
