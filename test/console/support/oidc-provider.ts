// A tenant's identity provider for the console's tests: oidc-provider on loopback with one public
// client (no secret, PKCE required) that gets JWT access tokens for the API's audience (RFC 8707
// resource indicator), carrying the account's roles and name. Its sign-in and consent pages are plain
// forms of its own that load nothing from elsewhere, so that a test can check that the browser talks
// to the console's server and this provider only.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { errors } from 'oidc-provider';

export interface ProviderAccount {
  password: string;
  name: string;
  /** The customer's role names, as the tenant file's role_mapping knows them. */
  roles: string[];
}

export interface IdentityProviderOptions {
  clientId: string;
  redirectUri: string;
  /** The API's audience: the resource indicator the client asks for, and the tokens' `aud`. */
  audience: string;
  /** By login name. */
  accounts: Record<string, ProviderAccount>;
}

export interface TestIdentityProvider {
  issuer: string;
  jwksUri: string;
  /** Each authorization request the provider received, as its query. */
  authorizationRequests: URLSearchParams[];
  close(): Promise<void>;
}

export async function startIdentityProvider(options: IdentityProviderOptions): Promise<TestIdentityProvider> {
  // The issuer names the port, so the server listens before the provider exists.
  let handle: (req: IncomingMessage, res: ServerResponse) => unknown = (_req, res) => res.writeHead(503).end();
  const server = createServer((req, res) => {
    Promise.resolve(handle(req, res)).catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = await createProvider(issuer, options);
  const authorizationRequests: URLSearchParams[] = [];
  const oidc = provider.callback();
  handle = async (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    if (url.pathname === '/auth') authorizationRequests.push(url.searchParams);
    const interaction = url.pathname.match(/^\/interaction\/[^/]+(\/(login|consent|abort))?$/);
    if (interaction) return answerInteraction(provider, options.accounts, (interaction[2] ?? 'show') as InteractionStep, req, res);
    return oidc(req, res);
  };
  return {
    issuer,
    jwksUri: `${issuer}/jwks`,
    authorizationRequests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function createProvider(issuer: string, { clientId, redirectUri, audience, accounts }: IdentityProviderOptions): Promise<Provider> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  return new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        token_endpoint_auth_method: 'none',
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: ['console-tests-only'] },
    pkce: { required: () => true },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
    // The console calls discovery and the token endpoint with fetch, from its own origin.
    clientBasedCORS: (_ctx: unknown, origin: string) => origin === new URL(redirectUri).origin,
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => {
          if (indicator !== audience) throw new errors.InvalidTarget();
          return { scope: '', audience, accessTokenFormat: 'jwt', accessTokenTTL: 600 };
        },
      },
    },
    findAccount: (_ctx: unknown, sub: string) =>
      accounts[sub] ? { accountId: sub, claims: () => ({ sub, name: accounts[sub]!.name }) } : undefined,
    // What the API reads from the access token: the roles it maps, and the person's name.
    extraTokenClaims: (_ctx, token) =>
      token.kind === 'AccessToken' && 'accountId' in token
        ? { roles: accounts[token.accountId]?.roles ?? [], name: accounts[token.accountId]?.name }
        : undefined,
  });
}

type InteractionStep = 'show' | 'login' | 'consent' | 'abort';

async function answerInteraction(
  provider: Provider,
  accounts: Record<string, ProviderAccount>,
  step: InteractionStep,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  const action = `/interaction/${details.uid}`;
  if (step === 'show' && details.prompt.name === 'login') return page(res, 'Sign in to the identity provider', loginForm(action, false));
  if (step === 'show') return page(res, 'Allow Groundcheck', consentForm(action));
  if (step === 'abort') {
    return provider.interactionFinished(
      req,
      res,
      { error: 'access_denied', error_description: 'The person declined.' },
      { mergeWithLastSubmission: false },
    );
  }
  const form = new URLSearchParams(await readBody(req));
  if (step === 'login') {
    const login = form.get('login') ?? '';
    const account = accounts[login];
    if (!account || account.password !== form.get('password'))
      return page(res, 'Sign in to the identity provider', loginForm(action, true));
    return provider.interactionFinished(req, res, { login: { accountId: login } }, { mergeWithLastSubmission: false });
  }
  const { session, params, grantId, prompt } = details;
  const grant =
    (grantId ? await provider.Grant.find(grantId) : undefined) ??
    new provider.Grant({ accountId: session!.accountId, clientId: String(params.client_id) });
  const missing = prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
    grant.addResourceScope(indicator, scopes.join(' '));
  return provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
}

function loginForm(action: string, refused: boolean): string {
  return `${refused ? '<p role="alert">Wrong login or password.</p>' : ''}
<form method="post" action="${action}/login">
  <label>Login <input name="login" autocomplete="username" required></label>
  <label>Password <input name="password" type="password" autocomplete="current-password" required></label>
  <button type="submit">Continue to Groundcheck</button>
</form>
<p><a href="${action}/abort">Cancel</a></p>`;
}

function consentForm(action: string): string {
  return `<p>Groundcheck asks to sign you in and to call its API as you.</p>
<form method="post" action="${action}/consent"><button type="submit">Allow</button></form>
<p><a href="${action}/abort">Cancel</a></p>`;
}

function page(res: ServerResponse, title: string, body: string): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`,
  );
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
