import type { RequestHandler } from 'express';
import { hasRole } from '../contract/roles.js';
import { AuthenticationError, PermissionError } from '../errors.js';

/** Enforces the operation's x-required-feature and x-required-role from the contract; fails closed. */
export const authorize: RequestHandler = (req, _res, next) => {
  const operation = req.ctx.operation!;
  if (operation.requiredRole === 'none') return next();
  const principal = req.ctx.principal;
  if (!principal) throw new AuthenticationError('unauthenticated', 'This operation needs credentials.');
  const feature = operation.requiredFeature;
  if (feature && !(Object.hasOwn(principal.tenant.features, feature) && principal.tenant.features[feature] === true)) {
    throw new PermissionError('feature_disabled', `The ${feature} feature is not enabled for this tenant.`);
  }
  if (!hasRole(principal.role, operation.requiredRole)) {
    throw new PermissionError(
      'insufficient_role',
      `This operation needs the ${operation.requiredRole} role; the caller has ${principal.role}.`,
    );
  }
  next();
};
