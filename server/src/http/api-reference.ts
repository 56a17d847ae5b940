// The API reference at /docs: a pre-rendered page that reads without JavaScript, with Scalar's
// interactive renderer on top (served from the npm package, never a CDN), the document Scalar
// renders at /docs/openapi.json, and the contract itself at /openapi.yaml, byte for byte. None is an
// operation of the contract: they sit outside /api/v1, take no credentials and are not rate limited,
// like the probes. Each is compressed once and revalidated by ETag.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type RequestHandler, Router } from 'express';
import { parse } from 'yaml';
import { specPath } from '../contract/contract.js';
import { MethodNotAllowedError } from '../errors.js';
import { sdkSamples } from './api-reference/generated/sdk-samples.js';
import type { OpenApiDocument } from './api-reference/openapi-objects.js';
import { referencePage } from './api-reference/reference-page.js';
import { scalarDocument } from './api-reference/scalar-document.js';
import { CachedAsset } from './cached-asset.js';

/** The page runs only the renderer served here and talks only to this server (the document it reads). */
export const docsContentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  // The renderer sets styles at run time; the pre-rendered page has one style element.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const scalarDocumentPath = '/docs/openapi.json';

// Everything here changes only with a new release of the server: caches keep a copy and ask again
// each time (a 304 when nothing changed); the renderer, by far the largest, is reused for an hour.
const revalidate = 'public, no-cache';

let renderer: CachedAsset | undefined;
/** One per process, however many apps it builds: the renderer is the same file for all of them. */
function scalarRenderer(): CachedAsset {
  renderer ??= new CachedAsset(readFileSync(createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js')), {
    contentType: 'text/javascript; charset=utf-8',
    cacheControl: 'public, max-age=3600',
  });
  return renderer;
}

export function apiReference(): Router {
  const spec = readFileSync(specPath);
  const contract = parse(spec.toString('utf8')) as OpenApiDocument;
  const page = new CachedAsset(Buffer.from(referencePage(contract, sdkSamples, scalarDocumentPath)), {
    contentType: 'text/html; charset=utf-8',
    cacheControl: revalidate,
  });
  const forScalar = new CachedAsset(Buffer.from(JSON.stringify(scalarDocument(contract, sdkSamples))), {
    contentType: 'application/json; charset=utf-8',
    cacheControl: revalidate,
  });
  const yaml = new CachedAsset(spec, { contentType: 'application/yaml; charset=utf-8', cacheControl: revalidate });

  const router = Router();
  router.get('/docs', async (req, res) => {
    res.setHeader('Content-Security-Policy', docsContentSecurityPolicy);
    await page.send(req, res);
  });
  router.get('/docs/scalar.js', (req, res) => scalarRenderer().send(req, res));
  router.get(scalarDocumentPath, (req, res) => forScalar.send(req, res));
  router.get('/openapi.yaml', (req, res) => yaml.send(req, res));
  const otherMethods: RequestHandler = () => {
    throw new MethodNotAllowedError(['GET', 'HEAD']);
  };
  router.all(['/docs', '/docs/scalar.js', scalarDocumentPath, '/openapi.yaml'], otherMethods);
  return router;
}
