// Client generators nobody here wrote, run on openapi.yaml as a customer would: @hey-api/openapi-ts,
// orval and openapi-typescript-codegen. Each output must type-check, keep the rule that a validate
// request names at least one source (a request without one must not compile), and no schema may
// take the name of a global (a schema named `Date` shadowed the global Date in every client).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { rawSpec, repoRoot, specPath } from '../support/spec.js';

const run = promisify(execFile);
// Each generator's own command, from its package.json: node_modules/.bin/openapi is Redocly's or
// openapi-typescript-codegen's depending on the install order.
function generator(pkg: string, ...args: string[]) {
  const manifest = join(repoRoot, 'node_modules', pkg, 'package.json');
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: string | Record<string, string> };
  const script = typeof bin === 'string' ? bin : Object.values(bin)[0]!;
  return run(process.execPath, [join(dirname(manifest), script), ...args], { cwd: out });
}
const out = mkdtempSync(join(tmpdir(), 'gc-generators-'));
after(() => rmSync(out, { recursive: true, force: true }));

// What a customer's code does with each client's request type: valid requests compile, a request
// without a source and one in the wrong shape do not.
const probe = (module: string) => `
import type { ValidateModeRequest, GenerateModeRequest } from '${module}';
export const withText: ValidateModeRequest = { mode: 'validate', question: 'q?', chatbot_response: 'a.', inline_text: 'source' };
export const withUrls: GenerateModeRequest = { mode: 'generate', question: 'q?', urls: ['https://example.com/a'] };
// @ts-expect-error a validate request needs at least one source
export const noSource: ValidateModeRequest = { mode: 'validate', question: 'q?', chatbot_response: 'a.' };
// @ts-expect-error a validate request needs its question
export const noQuestion: ValidateModeRequest = { mode: 'validate', chatbot_response: 'a.', inline_text: 'source' };
export const when: Date = new Date(0);
`;

before(async () => {
  await Promise.all([
    generator('@hey-api/openapi-ts', '--input', specPath, '--output', join(out, 'hey'), '--silent'),
    generator('orval', '--input', specPath, '--output', join(out, 'orval', 'api.ts'), '--client', 'fetch'),
    generator('openapi-typescript-codegen', '--input', specPath, '--output', join(out, 'codegen')),
  ]);
  writeFileSync(join(out, 'probe-hey.ts'), probe('./hey/types.gen'));
  writeFileSync(join(out, 'probe-orval.ts'), probe('./orval/api'));
  writeFileSync(join(out, 'probe-codegen.ts'), probe('./codegen'));
  writeFileSync(
    join(out, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        lib: ['ES2022', 'DOM', 'DOM.Iterable'],
        skipLibCheck: true,
        types: [],
      },
      include: ['**/*.ts'],
    }),
  );
});

test('the three generated clients and the probes type-check', async () => {
  const result = await run(process.execPath, [join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', out]).catch(
    (error: { stdout: string }) => error,
  );
  assert.equal(result.stdout, '', 'tsc reports nothing');
});

test('no schema takes the name of a JavaScript or DOM global', () => {
  const globals = new Set([
    ...Object.getOwnPropertyNames(globalThis),
    // DOM names the generated clients may meet in a browser build.
    ...['Date', 'File', 'Blob', 'Response', 'Request', 'Headers', 'Event', 'Document', 'Element', 'Location', 'Node', 'Range', 'Text'],
  ]);
  const clashes = Object.keys(rawSpec().components!.schemas!).filter((name) => globals.has(name));
  assert.deepEqual(clashes, []);
});
