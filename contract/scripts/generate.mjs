// Generates everything the code takes from openapi.yaml, once, for the SDK, the server and the mock:
// the TypeScript types (openapi-typescript), a named alias per schema, the operation tables and the
// webhook's shape (`npm run generate`). A test fails when the committed output differs from a fresh run.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { parse } from 'yaml';

const specPath = fileURLToPath(new URL('../openapi.yaml', import.meta.url));
const outDir = fileURLToPath(new URL('../src/generated/', import.meta.url));
const banner = '// Generated from openapi.yaml by contract/scripts/generate.mjs (`npm run generate`). Do not edit.\n';

export async function generate(spec = parse(readFileSync(specPath, 'utf8'))) {
  return {
    'openapi.ts': await contractTypes(),
    'operations.ts': operationTables(spec),
    'schemas.ts': schemaAliases(spec),
    'webhook-shape.ts': webhookShape(spec),
    'audit-facts.ts': auditFacts(spec),
  };
}

// Fields with a default stay optional in requests: the server fills them in.
async function contractTypes() {
  const ast = await openapiTS(pathToFileURL(specPath), { defaultNonNullable: false });
  return `${banner}\n${astToString(ast)}`;
}

const methods = ['get', 'post', 'put', 'patch', 'delete'];

// Every operation in the spec, in path then method order, with its path item (it holds the shared parameters).
function operationsOf(spec) {
  return Object.entries(spec.paths).flatMap(([path, item]) =>
    methods.filter((method) => item[method]).map((method) => ({ path, item, operation: item[method] })),
  );
}

const takesApiKey = ({ operation }) => operation['x-api-key'] === true;

const takesNoCredentials = ({ operation }) => Array.isArray(operation.security) && operation.security.length === 0;

// The header may be declared on the path item, for every method, or on the operation alone.
const declaresIdempotencyKey = ({ item, operation }) =>
  [...(item.parameters ?? []), ...(operation.parameters ?? [])].some((p) => p.$ref === '#/components/parameters/IdempotencyKey');

function operationTables(spec) {
  const operations = operationsOf(spec);
  const pathsWhere = (predicate) => operations.filter(predicate).map(({ path }) => path);
  const apiKey = pathsWhere(takesApiKey);
  const open = pathsWhere(takesNoCredentials);
  const idempotent = pathsWhere(declaresIdempotencyKey);
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

// Each audit event kind's facts, read off the `AuditEvent` variants, for the server to record exactly those.
function auditFacts(spec) {
  const schemas = spec.components.schemas;
  const rows = schemas.AuditEvent.oneOf.flatMap(({ $ref }) => {
    const variant = schemas[$ref.split('/').at(-1)].allOf.find((part) => part.properties?.kind);
    // The facts may be a schema of their own (`$ref`), shared with a response that reports the same figures.
    const data = variant.properties.data.$ref ? schemas[variant.properties.data.$ref.split('/').at(-1)] : variant.properties.data;
    const { required = [], properties = {} } = data;
    const optional = Object.keys(properties).filter((name) => !required.includes(name));
    return variant.properties.kind.enum.map(
      (kind) => `  ${kind}: { required: ${JSON.stringify(required)}, optional: ${JSON.stringify(optional)} },\n`,
    );
  });
  return `${banner}import type { components } from './openapi.js';

type AuditEventKind = components['schemas']['AuditEventKind'];

/** The facts each audit event kind records in \`data\`: those it must carry, and those it may. */
export const auditEventFacts = {
${rows.join('')}} as const satisfies Record<AuditEventKind, { required: readonly string[]; optional: readonly string[] }>;
`;
}

// `node scripts/generate.mjs [directory]`: the directory defaults to src/generated.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const target = process.argv[2] ? `${process.argv[2].replace(/\/$/, '')}/` : outDir;
  mkdirSync(target, { recursive: true });
  for (const [file, text] of Object.entries(await generate())) writeFileSync(target + file, text);
}
