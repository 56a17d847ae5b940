// The console at /console/: the built single-page application, under a Content-Security-Policy of its
// own. Like /docs it is a page, not an operation: no credentials, no rate limit (except the sign-in
// options, which read the tenant file). Every path below /console/ that is not a file answers the HTML
// entry, so that a reload or a shared link opens the screen it names. The API's responses keep their
// own headers (security-headers.ts).
import { type RequestHandler, Router } from 'express';
import type { Contract } from '../../contract/contract.js';
import { MethodNotAllowedError, NotFoundError } from '../../errors.js';
import type { TenantRegistry } from '../../tenants/registry.js';
import type { ConsoleFiles } from './console-files.js';
import { identityProviderOrigins } from './identity-provider-origins.js';
import { type AnonymousLimit, signInOptionsRoute } from './sign-in-options.js';

export interface ConsoleSite {
  files: ConsoleFiles;
  /** Origins other than this server's and the identity providers' that the pages call (connect-origins.ts). */
  connectOrigins: string[];
  /** The tenants, for the sign-in page: local accounts or an identity provider, and its origin for the policy. */
  tenants: TenantRegistry;
}

/**
 * Scripts, styles, images and fonts from this server only, no inline script or style; calls to this
 * server, and to the origins named in `connectOrigins` (the storage account that signed upload URLs
 * point to, the tenants' identity providers that sign-in talks to).
 */
export function consoleContentSecurityPolicy(connectOrigins: readonly string[]): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "font-src 'self'",
    ['connect-src', "'self'", ...connectOrigins].join(' '),
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function consoleRouter({ files, connectOrigins, tenants }: ConsoleSite, anonymousLimit: AnonymousLimit, contract: Contract): Router {
  const policy = consoleContentSecurityPolicy([...new Set([...connectOrigins, ...identityProviderOrigins(tenants.all)])]);
  const router = Router();
  const withPolicy: RequestHandler = (_req, res, next) => {
    res.setHeader('Content-Security-Policy', policy);
    next();
  };
  router.use('/console', withPolicy);
  // Express matches /console and /console/ alike.
  router.get('/console', (req, res) => files.entry.send(req, res));
  router.get('/console/sign-in-options', signInOptionsRoute(tenants, anonymousLimit, contract));
  router.get('/console/*path', async (req, res) => {
    const name = (req.params as { path: string[] }).path.join('/');
    const file = files.files.get(name);
    if (file) return file.send(req, res);
    // A missing hashed asset is an old page asking for a file this build does not have: say so,
    // rather than answer HTML that the browser would refuse to run as a script.
    if (name.startsWith('assets/')) throw new NotFoundError('not_found', 'No such file in this console build.');
    return files.entry.send(req, res);
  });
  const otherMethods: RequestHandler = () => {
    throw new MethodNotAllowedError(['GET', 'HEAD']);
  };
  router.all(['/console', '/console/*path'], otherMethods);
  return router;
}
