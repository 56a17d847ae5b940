// Request (and, outside production, response) validation against the contract.
import type { RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Contract } from '../spec/contract.js';

export function validateAgainstContract(contract: Contract, validateResponses: boolean): RequestHandler[] {
  return OpenApiValidator.middleware({
    apiSpec: structuredClone(contract.document) as never,
    validateRequests: { allowUnknownQueryParameters: false },
    validateResponses: validateResponses ? { removeAdditional: false } : false,
    validateSecurity: false,
    validateFormats: true,
  }) as RequestHandler[];
}

/** API-key credentials were checked by `authenticate`; handlers never see them. */
export const dropCredentials: RequestHandler = (req, _res, next) => {
  if (req.ctx.operation!.acceptsApiKey && req.body && typeof req.body === 'object') {
    delete (req.body as Record<string, unknown>).api_key;
    delete (req.body as Record<string, unknown>).customer_id;
  }
  next();
};
