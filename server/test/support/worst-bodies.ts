// The most expensive request bodies to validate that fit under an operation's size limit, built
// from the contract: for every operation (and every variant of a discriminated body), an array
// property filled with distinct items, an object with tens of thousands of unknown keys, and a
// string property far over its bound. Used by the validation test and benchmark.

import type { Contract, OperationInfo } from '../../src/contract/contract.js';
import { anonymousBodyLimitBytes, bodyLimitBytes } from '../../src/http/body-parser.js';

type Schema = Record<string, any>;

export interface WorstBody {
  operation: OperationInfo;
  /** What makes it expensive, for messages. */
  name: string;
  body: Record<string, unknown>;
}

export function worstBodies(contract: Contract, options: { longStrings?: boolean } = {}): WorstBody[] {
  const document = contract.document as Schema;
  const resolve = (schema: Schema): Schema =>
    schema?.$ref
      ? resolve(
          schema.$ref
            .slice(2)
            .split('/')
            .reduce((node: Schema, key: string) => node[key], document),
        )
      : schema;
  const bodies: WorstBody[] = [];
  for (const operation of contract.operations) {
    const raw = document.paths[operation.pathTemplate][operation.method.toLowerCase()].requestBody?.content?.['application/json']?.schema;
    if (!raw) continue;
    const budget = (operation.requiredRole === 'none' ? anonymousBodyLimitBytes : bodyLimitBytes) - 512;
    for (const variant of variants(resolve(raw), resolve)) {
      const base = minimal(variant, resolve);
      bodies.push({ operation, name: 'unknown keys', body: { ...base, ...manyKeys(budget - JSON.stringify(base).length) } });
      for (const [name, property] of Object.entries<Schema>(variant.properties ?? {})) {
        // API-key credentials are read by authentication, which answers before validation.
        if (name === 'customer_id' || name === 'api_key') continue;
        const schema = resolve(property);
        if (schema.type === 'array') {
          bodies.push({
            operation,
            name: `${name}: distinct items`,
            body: { ...base, [name]: distinctItems(resolve(schema.items ?? {}), budget - JSON.stringify(base).length) },
          });
        } else if (schema.type === 'string' && typeof schema.maxLength === 'number') {
          // Astral characters (4 UTF-8 bytes, 2 UTF-16 units) make the bound count code points.
          const text = options.longStrings
            ? '\u{1F600}'.repeat(Math.floor((budget - JSON.stringify(base).length) / 4))
            : 'x'.repeat(schema.maxLength + 1);
          bodies.push({ operation, name: `${name}: long string`, body: { ...base, [name]: text } });
        }
      }
    }
  }
  return bodies;
}

/** Each shape a body may take: the mapped variants of a discriminated oneOf, or the schema itself. */
function variants(schema: Schema, resolve: (schema: Schema) => Schema): Schema[] {
  const mapping = schema.discriminator?.mapping as Record<string, string> | undefined;
  if (!mapping) return [schema];
  return Object.values(mapping).map((ref) => resolve({ $ref: ref }));
}

/** The required fields with their `const` values (the discriminator tag) or a short string. */
function minimal(schema: Schema, resolve: (schema: Schema) => Schema): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const name of schema.required ?? []) {
    const property = resolve(schema.properties?.[name] ?? {});
    body[name] = property.const ?? (property.type === 'string' ? 'x' : property.type === 'integer' ? 1 : 'x');
  }
  return body;
}

function manyKeys(bytes: number): Record<string, number> {
  const keys: Record<string, number> = {};
  for (let i = 0, used = 0; used < bytes - 16; i += 1) {
    const key = `k${i.toString(36)}`;
    keys[key] = 1;
    used += key.length + 5;
  }
  return keys;
}

function distinctItems(items: Schema, bytes: number): unknown[] {
  const list: unknown[] = [];
  for (let i = 0, used = 0; used < bytes - 64; i += 1) {
    const value = items.type === 'object' ? { [`f${i.toString(36)}`]: i } : `v${i.toString(36)}`;
    list.push(value);
    used += JSON.stringify(value).length + 1;
  }
  return list;
}
