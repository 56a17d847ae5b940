import type { RequestHandler } from 'express';
import type { ContractValidator } from '../contract/validator.js';

/** Checks the request's parameters and body against its operation in the contract. */
export function validateRequest(validator: ContractValidator): RequestHandler {
  return (req, _res, next) => {
    validator.checkRequest(req.ctx.operation!, { path: req.ctx.params ?? {}, headers: req.headers, query: req.query, body: req.body });
    next();
  };
}

/** API-key credentials were checked by `authenticate`; handlers never see them. */
export const dropCredentials: RequestHandler = (req, _res, next) => {
  if (req.ctx.operation!.acceptsApiKey && req.body && typeof req.body === 'object') {
    delete (req.body as Record<string, unknown>).api_key;
    delete (req.body as Record<string, unknown>).customer_id;
  }
  next();
};
