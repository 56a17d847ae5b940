// The human-readable API reference at /docs (Scalar's standalone renderer, served from the npm
// package, never a CDN) and the contract itself at /openapi.yaml. Neither is an operation of the
// contract: they sit outside /api/v1, take no credentials and are not rate limited, like the probes.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type RequestHandler, Router } from 'express';
import { specPath } from '../contract/contract.js';
import { MethodNotAllowedError } from '../errors.js';

/** The page runs only the renderer served here and talks only to this server (the spec it reads). */
export const docsContentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  // The renderer sets styles at run time.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const renderer = createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js');

// Scalar reads its settings from data attributes, so the page needs no inline script. Its hosted
// fonts, request client, telemetry and AI agent (which searches Scalar's registry) would reach
// other hosts: all off.
const settings = {
  withDefaultFonts: false,
  hideClientButton: true,
  hideTestRequestButton: true,
  telemetry: false,
  agent: { disabled: true },
  metaData: { title: 'Groundcheck API reference' },
};

const page = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Groundcheck API reference</title>
    <link rel="icon" href="data:,">
  </head>
  <body>
    <script id="api-reference" data-url="/openapi.yaml" data-configuration="${escapeAttribute(JSON.stringify(settings))}"></script>
    <script src="/docs/scalar.js"></script>
  </body>
</html>
`;

function escapeAttribute(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
}

export function apiReference(): Router {
  const spec = readFileSync(specPath, 'utf8');
  const router = Router();
  router.get('/docs', (_req, res) => {
    res.setHeader('Content-Security-Policy', docsContentSecurityPolicy);
    res.type('html').send(page);
  });
  router.get('/docs/scalar.js', (_req, res, next) => {
    // The same file for as long as this server runs; it carries nothing private.
    res.removeHeader('Cache-Control');
    res.sendFile(renderer, { maxAge: '1h', headers: { 'Content-Type': 'text/javascript; charset=utf-8' } }, (error) => {
      if (error) next(error);
    });
  });
  router.get('/openapi.yaml', (_req, res) => {
    res.type('application/yaml; charset=utf-8').send(spec);
  });
  const otherMethods: RequestHandler = () => {
    throw new MethodNotAllowedError(['GET', 'HEAD']);
  };
  router.all(['/docs', '/docs/scalar.js', '/openapi.yaml'], otherMethods);
  return router;
}
