// Generates the TypeScript type of the operator's tenant file from its JSON Schema
// (server/tenant-file.schema.json), so that the code reading the file does not restate it. With a
// folder argument it writes there instead, so a test can compare a fresh run with the committed file.
//
//   node scripts/generate-tenant-file-type.mjs
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compile } from 'json-schema-to-typescript';

const schemaPath = fileURLToPath(new URL('../server/tenant-file.schema.json', import.meta.url));
const banner = '// Generated from server/tenant-file.schema.json by scripts/generate-tenant-file-type.mjs. Do not edit.\n\n';

// The root is named TenantFile rather than after the schema's title or id.
const { title: _title, $id: _id, ...schema } = JSON.parse(readFileSync(schemaPath, 'utf8'));
const text = await compile(schema, 'TenantFile', {
  bannerComment: '',
  // Properties with a `default` stay optional here: Ajv fills them in (useDefaults) when it checks the file.
  additionalProperties: false,
  strictIndexSignatures: false,
  format: true,
});

const dir = process.argv[2] ?? fileURLToPath(new URL('../server/src/tenants/generated', import.meta.url));
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'tenant-file.ts'), banner + text);
