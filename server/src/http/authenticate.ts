// Establishes the caller from a bearer token or from the API key in the body (section 5).
import type { RequestHandler } from 'express';
import type { Authenticator } from '../auth/authenticator.js';
import { AuthenticationError, BadRequestError, PermissionError } from '../errors.js';

export function authenticate(authenticator: Authenticator): RequestHandler {
  return async (req, _res, next) => {
    const operation = req.ctx.operation!;
    if (operation.requiredRole === 'none') return next();
    const header = req.get('authorization');
    const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
    const apiKey = body.api_key;
    const customerId = body.customer_id;

    if (apiKey !== undefined || customerId !== undefined) {
      if (!operation.acceptsApiKey) {
        throw new PermissionError('api_key_not_allowed', "This operation needs a user's bearer token; API keys are not accepted.");
      }
      if (header) throw new BadRequestError('invalid_request', 'Send either a bearer token or an API key, not both.');
      if (typeof apiKey !== 'string' || typeof customerId !== 'string') {
        const missing = typeof apiKey !== 'string' ? 'api_key' : 'customer_id';
        throw new BadRequestError('invalid_request', 'An API key needs both customer_id and api_key.', [
          { pointer: `/${missing}`, detail: `must be a string sent together with ${missing === 'api_key' ? 'customer_id' : 'api_key'}` },
        ]);
      }
      req.ctx.principal = await authenticator.fromApiKey(customerId, apiKey);
      return next();
    }
    if (!header)
      throw new AuthenticationError('unauthenticated', 'Send a bearer token in the Authorization header or an API key in the body.');
    const [scheme, token] = header.split(' ');
    if (scheme?.toLowerCase() !== 'bearer' || !token) {
      throw new AuthenticationError('invalid_token', 'The Authorization header must be "Bearer <token>".');
    }
    req.ctx.principal = await authenticator.fromBearer(token, req.ctx.clock.now());
    next();
  };
}
