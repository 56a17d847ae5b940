// Generates the SDK's runtime tables and schema aliases from openapi.yaml; `npm run generate` runs it
// after openapi-typescript. A test fails when the committed output differs from a fresh run.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const specPath = fileURLToPath(new URL('../../openapi.yaml', import.meta.url));
const outDir = fileURLToPath(new URL('../src/generated/', import.meta.url));
const banner = '// Generated from openapi.yaml by sdk/scripts/generate.mjs (`npm run generate`). Do not edit.\n';

export function generate(spec = parse(readFileSync(specPath, 'utf8'))) {
  return {
    'operations.ts': operationTables(spec),
    'schemas.ts': schemaAliases(spec),
    'webhook-shape.ts': webhookShape(spec),
  };
}

function operationTables(spec) {
  const apiKey = [];
  const open = [];
  const idempotent = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const operation = item[method];
      if (!operation) continue;
      if (operation['x-api-key'] === true) apiKey.push(path);
      if (Array.isArray(operation.security) && operation.security.length === 0) open.push(path);
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])];
      if (parameters.some((p) => p.$ref === '#/components/parameters/IdempotencyKey')) idempotent.push(path);
    }
  }
  const list = (paths) => `[\n${paths.map((p) => `  '${p}',\n`).join('')}]`;
  return `${banner}import type { paths } from './openapi.js';

type OperationPath = keyof paths;

/** Operations that accept API-key credentials in their body (\`x-api-key: true\`). */
export const apiKeyPaths: readonly OperationPath[] = ${list(apiKey)};

/** Operations that take no credentials at all (\`security: []\`). */
export const openPaths: readonly OperationPath[] = ${list(open)};

/** Operations that declare the \`Idempotency-Key\` header. */
export const idempotentPaths: readonly OperationPath[] = ${list(idempotent)};
`;
}

function schemaAliases(spec) {
  const names = Object.keys(spec.components.schemas);
  return `${banner}import type { components } from './openapi.js';

type Schemas = components['schemas'];

${names.map((name) => `export type ${name} = Schemas['${name}'];\n`).join('')}`;
}

// openapi-typescript types a property with a `default` as required; in a request body it is optional.
function webhookShape(spec) {
  const resolve = (schema) => {
    let current = schema;
    while (current.$ref)
      current = current.$ref
        .split('/')
        .slice(1)
        .reduce((node, key) => node[key], spec);
    return current;
  };
  const shapeOf = (input) => {
    const schema = resolve(input);
    if (schema.const !== undefined) return { const: schema.const };
    if (schema.oneOf) return schema.oneOf.map(shapeOf).join('|');
    const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? (schema.properties ? 'object' : 'string')];
    if (types.includes('array')) return [shapeOf(schema.items)];
    if (types.includes('object')) {
      return Object.fromEntries((schema.required ?? []).map((name) => [name, shapeOf(schema.properties[name])]));
    }
    return types.join('|');
  };
  const event = shapeOf(spec.webhooks['service.validation.findings'].post.requestBody.content['application/json'].schema);
  return `${banner}
/** A JSON type ('string', 'integer|null', …), a constant, an array of one shape, or an object's required fields. */
export type Shape = string | { const: unknown } | [Shape] | { [field: string]: Shape };

export const validationFindingsEventShape: Shape = ${JSON.stringify(event, null, 2)};
`;
}

// `node scripts/generate.mjs [directory]`: the directory defaults to src/generated.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const target = process.argv[2] ? `${process.argv[2].replace(/\/$/, '')}/` : outDir;
  for (const [file, text] of Object.entries(generate())) writeFileSync(target + file, text);
}
