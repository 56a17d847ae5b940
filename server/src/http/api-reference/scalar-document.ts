// The document the interactive reference (Scalar 1.46) renders: the contract with each operation's
// SDK sample as `x-codeSamples`, and two things Scalar does not read as the contract means them:
// - A schema that only combines others (allOf/oneOf/anyOf) gets the `type` its members imply.
//   Scalar checks each schema against a model that needs a `type`; it fills in a marker of its own
//   where one is missing, but misses schemas it first meets through a `$ref`, and warns in the
//   console ("document validation errors") for each.
// - A response `$ref` with a description of its own (the operation's problem codes for that status)
//   becomes a copy of the response with that description: Scalar shows the shared one instead.
import { type OpenApiDocument, operationsOf, resolve, type SchemaObject } from './openapi-objects.js';

const compositions = ['allOf', 'oneOf', 'anyOf'] as const;
const nestedSchemas = ['items', 'not', 'additionalProperties', 'contentSchema'] as const;
const nestedSchemaLists = [...compositions, 'prefixItems'] as const;
const nestedSchemaMaps = ['properties', 'patternProperties'] as const;

export function scalarDocument(contract: OpenApiDocument, samples: Readonly<Record<string, string>>): OpenApiDocument {
  const document = structuredClone(contract);
  for (const { operation } of [...operationsOf(document.paths), ...operationsOf(document.webhooks)]) {
    const source = operation.operationId ? samples[operation.operationId] : undefined;
    if (source) operation['x-codeSamples'] = [{ lang: 'TypeScript', label: '@groundcheck/sdk', source }];
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      if (response.$ref && response.description !== undefined) {
        operation.responses![status] = { ...resolve(document, { $ref: response.$ref }), description: response.description };
      }
    }
  }
  forEachSchema(document, (schema) => {
    if (schema.type !== undefined || schema.$ref !== undefined || !compositions.some((kind) => schema[kind])) return;
    const types = impliedTypes(document, schema, new Set());
    if (types) schema.type = types.length === 1 ? types[0] : types;
  });
  return document;
}

/** The JSON types a value of the schema can have, when its members say so; null when they do not. */
function impliedTypes(document: OpenApiDocument, schema: SchemaObject, seen: Set<SchemaObject>): string[] | null {
  if (seen.has(schema)) return null;
  seen.add(schema);
  if (schema.$ref) return impliedTypes(document, resolve(document, schema), seen);
  if (schema.type !== undefined) return [schema.type].flat();
  // Every member of allOf holds, so any member's type is the schema's.
  for (const member of schema.allOf ?? []) {
    const types = impliedTypes(document, member, new Set(seen));
    if (types) return types;
  }
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (!alternatives) return null;
  const types = alternatives.map((member) => impliedTypes(document, member, new Set(seen)));
  return types.every((t) => t !== null) ? [...new Set(types.flat() as string[])] : null;
}

/** Calls `visit` on every schema object of the document: components, parameters, bodies, nested. */
function forEachSchema(document: OpenApiDocument, visit: (schema: SchemaObject) => void): void {
  const seen = new Set<unknown>();
  const walkSchema = (schema: unknown): void => {
    if (typeof schema !== 'object' || schema === null || seen.has(schema)) return;
    seen.add(schema);
    const object = schema as SchemaObject;
    visit(object);
    for (const nested of nestedSchemasOf(object)) walkSchema(nested);
  };
  // Elsewhere a schema sits under a `schema` key (parameters, headers, media types); examples hold data.
  const walkObject = (node: unknown, key?: string): void => {
    if (typeof node !== 'object' || node === null) return;
    if (key === 'schema') {
      walkSchema(node);
      return;
    }
    if (key === 'schemas' || key === 'example' || key === 'examples' || key === 'x-codeSamples') return;
    for (const [childKey, child] of Object.entries(node)) walkObject(child, childKey);
  };
  for (const schema of Object.values(document.components?.schemas ?? {})) walkSchema(schema);
  walkObject(document);
}

/** The schemas directly inside a schema: under a key, in a list, or in a map. */
function nestedSchemasOf(schema: SchemaObject): unknown[] {
  const nested: unknown[] = nestedSchemas.map((key) => schema[key]);
  for (const key of nestedSchemaLists) nested.push(...((schema[key] as unknown[] | undefined) ?? []));
  for (const key of nestedSchemaMaps) nested.push(...Object.values((schema[key] as object | undefined) ?? {}));
  return nested;
}
