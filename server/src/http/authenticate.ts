// Establishes the caller (section 5): from a bearer token before the body is read, so that a request
// with bad credentials in its headers is refused without its body being parsed; or else from the
// API key in the body, once it is read.
import type { RequestHandler } from 'express';
import { AuthenticationError, BadRequestError, PermissionError } from '../errors.js';
import type { Authenticator } from '../services/auth/authenticator.js';

/** The bearer token of the Authorization header, checked before the body is read. */
export function authenticateHeader(authenticator: Authenticator): RequestHandler {
  return async (req, _res, next) => {
    const operation = req.ctx.operation!;
    const header = req.get('authorization');
    if (operation.requiredRole === 'none' || !header) return next();
    const [scheme, token] = header.split(' ');
    if (scheme?.toLowerCase() !== 'bearer' || !token) {
      throw new AuthenticationError('invalid_token', 'The Authorization header must be "Bearer <token>".');
    }
    req.ctx.principal = await authenticator.fromBearer(token, req.ctx.clock.now());
    next();
  };
}

/** The API key in the body, for a call whose headers carried no token. */
export function authenticate(authenticator: Authenticator): RequestHandler {
  return async (req, _res, next) => {
    const operation = req.ctx.operation!;
    if (operation.requiredRole === 'none') return next();
    const { api_key: apiKey, customer_id: customerId } = bodyFields(req.body);

    if (apiKey !== undefined || customerId !== undefined) {
      const key = usableApiKey(apiKey, customerId, operation.acceptsApiKey, Boolean(req.ctx.principal));
      req.ctx.principal = await authenticator.fromApiKey(key.customerId, key.apiKey);
      return next();
    }
    if (!req.ctx.principal)
      throw new AuthenticationError('unauthenticated', 'Send a bearer token in the Authorization header or an API key in the body.');
    next();
  };
}

function bodyFields(body: unknown): Record<string, unknown> {
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/** The API key a body carries, refused unless the operation takes one and the call has no bearer token too. */
function usableApiKey(
  apiKey: unknown,
  customerId: unknown,
  acceptsApiKey: boolean,
  hasBearer: boolean,
): { customerId: string; apiKey: string } {
  if (!acceptsApiKey) {
    throw new PermissionError('api_key_not_allowed', "This operation needs a user's bearer token; API keys are not accepted.");
  }
  if (hasBearer) throw new BadRequestError('invalid_request', 'Send either a bearer token or an API key, not both.');
  if (typeof apiKey !== 'string' || typeof customerId !== 'string') {
    const missing = typeof apiKey !== 'string' ? 'api_key' : 'customer_id';
    throw new BadRequestError('invalid_request', 'An API key needs both customer_id and api_key.', [
      { pointer: `/${missing}`, detail: `must be a string sent together with ${missing === 'api_key' ? 'customer_id' : 'api_key'}` },
    ]);
  }
  return { customerId, apiKey };
}
