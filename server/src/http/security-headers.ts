// The usual security headers, set for a JSON API: nothing is cached, sniffed, framed or run.
import type { RequestHandler } from 'express';
import helmet from 'helmet';

export function securityHeaders(): RequestHandler[] {
  return [
    helmet({
      // An API answers no page: a document that somehow renders may load and run nothing.
      contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
      crossOriginEmbedderPolicy: false,
      frameguard: { action: 'deny' },
    }),
    (_req, res, next) => {
      // Responses carry tokens, audit data and answers about private documents.
      res.setHeader('Cache-Control', 'no-store');
      next();
    },
  ];
}
