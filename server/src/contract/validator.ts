// Checks requests and responses against the contract, read once into one Ajv instance: request
// parameters (path, headers, query) and bodies, with every invalid field listed, and, outside
// production, responses. Bodies pass their size keywords first (body-bounds.ts), so the cost of
// checking any body is bounded by the schema, not by the input.

import { type FieldError, fieldWording } from '@groundcheck/contract';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { BadRequestError } from '../errors.js';
import { checkBounds } from './body-bounds.js';
import type { Contract, OperationInfo } from './contract.js';

/** A problem lists at most this many fields; its detail gives the full count. */
export const maxFieldErrors = 20;

interface RawParameter {
  name: string;
  in: 'path' | 'header' | 'query' | 'cookie';
  required?: boolean;
}

interface RawOperation {
  parameters?: RawParameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

/** What a request carries besides its body; header names in lower case, as Node gives them. */
export interface RequestParts {
  path: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, unknown>;
  body: unknown;
}

interface Compiled {
  parameters: { where: 'path' | 'header' | 'query'; name: string; required: boolean; validate: ValidateFunction }[];
  body: { schema: Record<string, unknown>; validate: ValidateFunction; required: boolean } | null;
  responses: Map<string, ValidateFunction>;
  /** For an operation whose 200 response lists items in `data`: one item's schema. */
  listItem: ValidateFunction | null;
}

export class ContractValidator {
  private readonly operations = new Map<string, Compiled>();
  private readonly resolve: (ref: string) => Record<string, unknown>;

  constructor(contract: Contract) {
    // `verbose` gives each error its schema, so an anyOf error can tell how many alternatives it had.
    const ajv = new Ajv2020({ allErrors: true, strict: false, discriminator: true, verbose: true });
    addFormats.default(ajv);
    // Requests: oneOf branches chosen by their discriminator, for one precise error list. Responses
    // (outside production): plain oneOf, as Ajv's discriminator needs the tag in each branch's own
    // properties and the response variants compose theirs with allOf.
    ajv.addSchema(withoutMappings(contract.document) as object, 'contract');
    ajv.addSchema(withoutDiscriminators(contract.document) as object, 'contract-responses');
    const document = contract.document as { paths: Record<string, Record<string, RawOperation> & { parameters?: unknown[] }> };
    this.resolve = (ref) =>
      ref
        .slice(2)
        .split('/')
        .reduce<Record<string, unknown>>(
          (node, key) => node[key.replaceAll('~1', '/').replaceAll('~0', '~')] as Record<string, unknown>,
          contract.document,
        );
    const compile = (pointer: string, view = 'contract') => ajv.compile({ $ref: `${view}#${pointer}` });
    for (const operation of contract.operations) {
      const method = operation.method.toLowerCase();
      const at = `/paths/${escapePointer(operation.pathTemplate)}/${method}`;
      const item = document.paths[operation.pathTemplate]!;
      const raw = item[method] as RawOperation;
      const shared = item.parameters ?? [];
      const parameters = [
        ...shared.map((p, i) => [p, `/paths/${escapePointer(operation.pathTemplate)}/parameters/${i}`] as const),
        ...(raw.parameters ?? []).map((p, i) => [p, `${at}/parameters/${i}`] as const),
      ].map(([parameter, pointer]) => {
        const ref = (parameter as { $ref?: string }).$ref;
        const resolved = (ref ? this.resolve(ref) : parameter) as RawParameter;
        return {
          where: resolved.in as 'path' | 'header' | 'query',
          name: resolved.in === 'header' ? resolved.name.toLowerCase() : resolved.name,
          required: resolved.required ?? false,
          validate: compile(`${ref ? ref.slice(1) : pointer}/schema`),
        };
      });
      const bodySchema = raw.requestBody?.content?.['application/json']?.schema;
      const responses = new Map<string, ValidateFunction>();
      for (const [status, response] of Object.entries(raw.responses ?? {})) {
        if (response.content?.['application/json']?.schema)
          responses.set(status, compile(`${at}/responses/${status}/content/application~1json/schema`, 'contract-responses'));
      }
      const listed = raw.responses?.['200']?.content?.['application/json']?.schema
        ? this.dataItemsPointer(`${at}/responses/200/content/application~1json/schema`)
        : null;
      this.operations.set(operation.operationId, {
        listItem: listed ? compile(listed, 'contract-responses') : null,
        parameters,
        body: bodySchema
          ? {
              schema: bodySchema as Record<string, unknown>,
              validate: compile(`${at}/requestBody/content/application~1json/schema`),
              required: raw.requestBody?.required === true,
            }
          : null,
        responses,
      });
    }
  }

  /** Throws a BadRequestError listing the invalid parameters, or else the invalid body fields. */
  checkRequest(operation: OperationInfo, parts: RequestParts): void {
    const compiled = this.operations.get(operation.operationId);
    if (!compiled) return;
    const parameterErrors = this.parameterErrors(compiled, parts);
    if (parameterErrors.length > 0) throw invalid('The request has', parameterErrors, parameterErrors.length);
    if (!compiled.body) return;
    // No body at all (none sent, or an empty one): an operation that requires one refuses it here,
    // before anything reads it.
    if (parts.body === undefined) {
      if (compiled.body.required) throw invalid('The request body has', [{ pointer: '', detail: 'is required' }], 1);
      return;
    }
    const bounds = checkBounds(compiled.body.schema, parts.body, this.resolve, maxFieldErrors);
    if (bounds.total > 0) throw invalid('The request body has', bounds.errors, bounds.total);
    if (compiled.body.validate(parts.body)) return;
    const fields = fieldErrors(compiled.body.validate.errors!);
    throw invalid('The request body has', fields.slice(0, maxFieldErrors), fields.length);
  }

  /** Why a JSON response breaks the contract, or null when it keeps it. */
  responseErrors(operationId: string, status: number, body: unknown): string[] | null {
    const validate = this.operations.get(operationId)?.responses.get(String(status));
    if (!validate) return [`status ${status} is not declared with a JSON body`];
    if (validate(body)) return null;
    return validate.errors!.map((error) => `${error.instancePath || '/'} ${error.message}`);
  }

  /**
   * The items of a list response (`data`) that break the contract, by index, with why; empty for
   * other operations. Checked in production too: a list leaves out what it cannot show.
   */
  nonconformingItems(operationId: string, body: unknown): { index: number; errors: string[] }[] {
    const validate = this.operations.get(operationId)?.listItem;
    const items = (body as { data?: unknown } | null)?.data;
    if (!validate || !Array.isArray(items)) return [];
    return items.flatMap((item, index) =>
      validate(item) ? [] : [{ index, errors: validate.errors!.slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message}`) }],
    );
  }

  /** Where the schema at `pointer` (through $ref and allOf) declares `data` as an array: its items' pointer. */
  private dataItemsPointer(pointer: string): string | null {
    const node = this.resolve(`#${pointer}`) as { $ref?: string; allOf?: unknown[]; properties?: { data?: { type?: string } } };
    if (node.$ref) return this.dataItemsPointer(node.$ref.slice(1));
    if (node.properties?.data?.type === 'array') return `${pointer}/properties/data/items`;
    for (const [i] of (node.allOf ?? []).entries()) {
      const found = this.dataItemsPointer(`${pointer}/allOf/${i}`);
      if (found) return found;
    }
    return null;
  }

  private parameterErrors(compiled: Compiled, parts: RequestParts): FieldError[] {
    const errors: FieldError[] = [];
    for (const parameter of compiled.parameters) errors.push(...sentValueErrors(parameter, sentValue(parameter, parts)));
    const known = new Set(compiled.parameters.filter((p) => p.where === 'query').map((p) => p.name));
    for (const name of Object.keys(parts.query))
      if (!known.has(name)) errors.push({ pointer: `query:${name}`, detail: 'is not a known parameter' });
    return errors.slice(0, maxFieldErrors);
  }
}

type CompiledParameter = Compiled['parameters'][number];

function sentValue(parameter: CompiledParameter, parts: RequestParts): unknown {
  if (parameter.where === 'path') return parts.path[parameter.name];
  if (parameter.where === 'header') return parts.headers[parameter.name];
  return parts.query[parameter.name];
}

/** Why a parameter's value as sent is refused; none when it is valid or absent and optional. */
function sentValueErrors(parameter: CompiledParameter, raw: unknown): FieldError[] {
  const pointer = `${parameter.where}:${parameter.name}`;
  if (raw === undefined) return parameter.required ? [{ pointer, detail: 'is required' }] : [];
  if (typeof raw !== 'string') return [{ pointer, detail: 'must be sent once' }];
  if (parameter.validate(raw)) return [];
  return parameter.validate.errors!.map((error) => ({ pointer, detail: error.message ? fieldWording(error.message) : 'is invalid' }));
}

const escapePointer = (path: string) => path.replaceAll('~', '~0').replaceAll('/', '~1');

function withoutDiscriminators(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDiscriminators);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'discriminator')
      .map(([key, inner]) => [key, withoutDiscriminators(inner)]),
  );
}

/** Ajv picks the oneOf branch from the discriminator's const values; it rejects OpenAPI's `mapping`. */
function withoutMappings(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutMappings);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === 'discriminator' ? { propertyName: (inner as { propertyName: string }).propertyName } : withoutMappings(inner),
    ]),
  );
}

function toFieldError(error: ErrorObject, alternatives: string[]): FieldError {
  const pointer = error.instancePath;
  switch (error.keyword) {
    case 'required':
      return { pointer: `${error.instancePath}/${error.params.missingProperty}`, detail: 'is required' };
    case 'additionalProperties':
      return { pointer: `${error.instancePath}/${error.params.additionalProperty}`, detail: 'is not a known field' };
    case 'enum':
      return { pointer, detail: `must be one of: ${(error.params.allowedValues as unknown[]).join(', ')}` };
    case 'discriminator': {
      const at = `${error.instancePath}/${error.params.tag}`;
      // Ajv reports a missing or non-string tag and an unknown one alike; the caller needs to know which.
      if (error.params.tagValue === undefined) return { pointer: at, detail: 'is required' };
      if (typeof error.params.tagValue !== 'string') return { pointer: at, detail: 'must be a string' };
      return { pointer: at, detail: `${JSON.stringify(error.params.tagValue)} is not a known ${error.params.tag}` };
    }
    case 'anyOf':
      return {
        pointer,
        detail: alternatives.length ? `needs at least one of: ${alternatives.join(', ')}` : 'matches none of the allowed shapes',
      };
    default:
      return { pointer, detail: error.message ? fieldWording(error.message) : 'is invalid' };
  }
}

/**
 * `required` errors inside an anyOf are alternatives, reported once on the anyOf itself. An anyOf
 * with an alternative that is present but invalid is not reported: that field's own error is listed
 * (the contract's alternatives restate properties the object declares).
 */
function fieldErrors(errors: ErrorObject[]): FieldError[] {
  const anyOfPaths = errors.filter((e) => e.keyword === 'anyOf').map((e) => e.schemaPath);
  const insideAnyOf = (e: ErrorObject) => anyOfPaths.some((path) => e.schemaPath.startsWith(path.replace(/\/anyOf$/, '/anyOf/')));
  const everyAlternativeMissing = (anyOf: ErrorObject) => {
    const branches = new Set(
      errors
        .filter((inner) => inner.keyword === 'required' && inner.schemaPath.startsWith(`${anyOf.schemaPath}/`))
        .map((inner) => inner.schemaPath.slice(anyOf.schemaPath.length + 1).split('/')[0]),
    );
    return branches.size === ((anyOf.parentSchema as { anyOf?: unknown[] } | undefined)?.anyOf?.length ?? branches.size);
  };
  const fields = errors
    .filter((e) => !insideAnyOf(e) && (e.keyword !== 'anyOf' || everyAlternativeMissing(e)))
    .map((e) =>
      toFieldError(
        e,
        e.keyword === 'anyOf'
          ? errors
              .filter((inner) => inner.keyword === 'required' && insideAnyOf(inner) && inner.schemaPath.startsWith(e.schemaPath))
              .map((inner) => String(inner.params.missingProperty))
          : [],
      ),
    );
  const seen = new Set<string>();
  return fields.filter((f) => !seen.has(f.pointer + f.detail) && seen.add(f.pointer + f.detail));
}

function invalid(what: string, fields: FieldError[], total: number): BadRequestError {
  const count = `${total} invalid field${total === 1 ? '' : 's'}`;
  const detail = total > fields.length ? `${what} ${count}; the first ${fields.length} are listed.` : `${what} ${count}.`;
  return new BadRequestError('invalid_request', detail, fields);
}
