// Validates JSON request bodies against the contract and reports every invalid field.
// express-openapi-validator still validates parameters and headers afterwards, but it stops at the
// first error inside a discriminated oneOf (the validate and review bodies), which callers should
// not have to discover one request at a time.
import type { RequestHandler } from 'express';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { BadRequestError, type FieldError } from '../errors.js';
import type { Contract } from '../spec/contract.js';
import { checkBounds } from './body-bounds.js';

/** A problem lists at most this many fields; its detail gives the full count. */
export const maxFieldErrors = 20;

interface Document {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: unknown }> } }>>;
}

/** Ajv picks the oneOf branch from the discriminator's const values; it rejects OpenAPI's `mapping`. */
function withoutMappings(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutMappings);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, key === 'discriminator' ? { propertyName: (inner as { propertyName: string }).propertyName } : withoutMappings(inner)]),
  );
}

function toFieldError(error: ErrorObject, alternatives: string[]): FieldError {
  const pointer = error.instancePath || '/';
  switch (error.keyword) {
    case 'required':
      return { pointer: `${error.instancePath}/${error.params.missingProperty}`, detail: 'is required' };
    case 'additionalProperties':
      return { pointer: `${error.instancePath}/${error.params.additionalProperty}`, detail: 'is not a known field' };
    case 'enum':
      return { pointer, detail: `must be one of: ${(error.params.allowedValues as unknown[]).join(', ')}` };
    case 'discriminator':
      return { pointer: `${error.instancePath}/${error.params.tag}`, detail: `${JSON.stringify(error.params.tagValue)} is not a known ${error.params.tag}` };
    case 'anyOf':
      return { pointer, detail: alternatives.length ? `needs at least one of: ${alternatives.join(', ')}` : 'matches none of the allowed shapes' };
    default:
      return { pointer, detail: error.message ?? 'is invalid' };
  }
}

/** `required` errors inside an anyOf are alternatives, reported once on the anyOf itself. */
function fieldErrors(errors: ErrorObject[]): FieldError[] {
  const anyOfPaths = errors.filter((e) => e.keyword === 'anyOf').map((e) => e.schemaPath);
  const insideAnyOf = (e: ErrorObject) => anyOfPaths.some((path) => e.schemaPath.startsWith(path.replace(/\/anyOf$/, '/anyOf/')));
  const fields = errors
    .filter((e) => !insideAnyOf(e))
    .map((e) => toFieldError(e, e.keyword === 'anyOf' ? errors.filter((inner) => inner.keyword === 'required' && insideAnyOf(inner) && inner.schemaPath.startsWith(e.schemaPath)).map((inner) => String(inner.params.missingProperty)) : []));
  const seen = new Set<string>();
  return fields.filter((f) => !seen.has(f.pointer + f.detail) && seen.add(f.pointer + f.detail));
}

/** Checks a parsed body against its operation's schema; throws a BadRequestError listing the fields. */
export type BodyValidator = (operationId: string, body: unknown) => void;

export function createBodyValidator(contract: Contract): BodyValidator {
  const ajv = new Ajv2020({ allErrors: true, strict: false, discriminator: true });
  addFormats.default(ajv);
  ajv.addSchema(withoutMappings(contract.document) as object, 'contract');
  const document = contract.document as unknown as Document;
  const resolve = (ref: string) => ref.slice(2).split('/').reduce<any>((node, key) => node[key.replaceAll('~1', '/').replaceAll('~0', '~')], document);
  const validators = new Map<string, { schema: Record<string, unknown>; validate: ValidateFunction }>();
  for (const operation of contract.operations) {
    const schema = document.paths[operation.pathTemplate]?.[operation.method.toLowerCase()]?.requestBody?.content?.['application/json']?.schema;
    if (!schema) continue;
    const pointer = `/paths/${operation.pathTemplate.replaceAll('~', '~0').replaceAll('/', '~1')}/${operation.method.toLowerCase()}/requestBody/content/application~1json/schema`;
    validators.set(operation.operationId, { schema: schema as Record<string, unknown>, validate: ajv.compile({ $ref: `contract#${pointer}` }) });
  }
  return (operationId, body) => {
    const validator = validators.get(operationId);
    if (!validator) return;
    const bounds = checkBounds(validator.schema, body, resolve, maxFieldErrors);
    if (bounds.total > 0) throw invalid(bounds.errors, bounds.total);
    if (validator.validate(body)) return;
    const fields = fieldErrors(validator.validate.errors!);
    throw invalid(fields.slice(0, maxFieldErrors), fields.length);
  };
}

export function validateBodies(contract: Contract): RequestHandler {
  const validate = createBodyValidator(contract);
  return (req, _res, next) => {
    if (req.body !== undefined) validate(req.ctx.operation!.operationId, req.body);
    next();
  };
}

function invalid(fields: FieldError[], total: number): BadRequestError {
  const count = `${total} invalid field${total === 1 ? '' : 's'}`;
  const detail = total > fields.length ? `The request body has ${count}; the first ${fields.length} are listed.` : `The request body has ${count}.`;
  return new BadRequestError('invalid_request', detail, fields);
}
