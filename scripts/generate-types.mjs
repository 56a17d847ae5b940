// Generates the TypeScript types of openapi.yaml for the SDK and the server (`npm run generate`).
// With a folder argument it writes there instead, so a test can compare a fresh run with the
// committed files.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';

const spec = new URL('../openapi.yaml', import.meta.url);
const banner = '// Generated from openapi.yaml by scripts/generate-types.mjs (`npm run generate`). Do not edit.\n\n';

// Fields with a default stay optional in requests: the server fills them in.
const ast = await openapiTS(spec, { defaultNonNullable: false });
const contents = banner + astToString(ast);

const targets = process.argv[2]
  ? [process.argv[2]]
  : ['../sdk/src/generated', '../server/src/generated'].map((dir) => new URL(dir, import.meta.url).pathname);
for (const dir of targets) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'openapi.ts'), contents);
}
