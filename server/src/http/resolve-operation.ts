import type { RequestHandler } from 'express';
import type { Contract } from '../contract/contract.js';
import { MethodNotAllowedError, NotFoundError } from '../errors.js';

/** Finds the contract operation a request addresses; everything after this step reads it. */
export function resolveOperation(contract: Contract): RequestHandler {
  return (req, _res, next) => {
    const match = contract.match(req.method, req.path);
    if (!match) throw new NotFoundError('not_found', `No operation exists at ${req.path}.`);
    if ('allowed' in match) throw new MethodNotAllowedError(match.allowed);
    req.ctx.operation = match.operation;
    req.ctx.params = match.params;
    next();
  };
}
