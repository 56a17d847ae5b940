// Request (and, outside production, response) validation against the contract.
import type { RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Contract } from '../spec/contract.js';

// express-openapi-validator's discriminator support rejects valid bodies of variants built with
// allOf/anyOf (a `generate` request with only inline_text). Each variant pins its tag with `const`,
// so plain oneOf selects the same branch; bodies were already checked, with every error listed,
// by validateBodies.
function withoutDiscriminators(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDiscriminators);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'discriminator').map(([key, inner]) => [key, withoutDiscriminators(inner)]));
}

export function validateAgainstContract(contract: Contract, validateResponses: boolean): RequestHandler[] {
  const validators = OpenApiValidator.middleware({
    apiSpec: withoutDiscriminators(contract.document) as never,
    validateRequests: { allowUnknownQueryParameters: false },
    validateResponses: validateResponses ? { removeAdditional: false } : false,
    validateSecurity: false,
    validateFormats: true,
  }) as RequestHandler[];
  // The contract declares GETs; a HEAD has the same parameters and no body to check either way.
  return validators.map((validator): RequestHandler => (req, res, next) => (req.method === 'HEAD' ? next() : validator(req, res, next)));
}

/** API-key credentials were checked by `authenticate`; handlers never see them. */
export const dropCredentials: RequestHandler = (req, _res, next) => {
  if (req.ctx.operation!.acceptsApiKey && req.body && typeof req.body === 'object') {
    delete (req.body as Record<string, unknown>).api_key;
    delete (req.body as Record<string, unknown>).customer_id;
  }
  next();
};
