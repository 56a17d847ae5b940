import type { RequestHandler } from 'express';
import { PermissionError } from '../errors.js';
import { roleRank } from '../spec/contract.js';

/** Enforces the operation's x-required-feature and x-required-role from the contract. */
export const authorize: RequestHandler = (req, _res, next) => {
  const operation = req.ctx.operation!;
  const principal = req.ctx.principal;
  if (operation.requiredRole === 'none' || !principal) return next();
  const feature = operation.requiredFeature;
  if (feature && !principal.tenant.features[feature]) {
    throw new PermissionError('feature_disabled', `The ${feature} feature is not enabled for this tenant.`);
  }
  if (roleRank[principal.role] < roleRank[operation.requiredRole]) {
    throw new PermissionError('insufficient_role', `This operation needs the ${operation.requiredRole} role; the caller has ${principal.role}.`);
  }
  next();
};
