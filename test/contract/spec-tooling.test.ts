import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { repoRoot, specPath } from '../support/spec.js';

const bin = (name: string) => join(repoRoot, 'node_modules', '.bin', name);

test('swagger-parser validates openapi.yaml', async () => {
  await SwaggerParser.validate(specPath);
});

test('Redocly lint reports no problem', () => {
  const result = spawnSync(bin('redocly'), ['lint', specPath, '--format=stylish'], { cwd: repoRoot, encoding: 'utf8' });
  assert.equal(result.status, 0, result.stdout + result.stderr);
  assert.match(result.stdout + result.stderr, /Your API description is valid/);
  assert.doesNotMatch(result.stdout + result.stderr, /\d+ (errors?|warnings?)\b/);
});

test('the generated types of the SDK and the server are what the spec produces', () => {
  const out = mkdtempSync(join(tmpdir(), 'gc-types-'));
  const result = spawnSync(process.execPath, [join(repoRoot, 'scripts/generate-types.mjs'), out], { cwd: repoRoot, encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  const fresh = readFileSync(join(out, 'openapi.ts'), 'utf8');
  for (const committed of ['sdk/src/generated/openapi.ts', 'server/src/generated/openapi.ts']) {
    assert.ok(
      readFileSync(join(repoRoot, committed), 'utf8') === fresh,
      `${committed} is stale: run \`npm run generate\` and commit the result`,
    );
  }
});
