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

test('the generated SDK types are what openapi-typescript produces from the spec', () => {
  const out = join(mkdtempSync(join(tmpdir(), 'gc-types-')), 'openapi.ts');
  const result = spawnSync(bin('openapi-typescript'), [specPath, '-o', out], { cwd: repoRoot, encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  const committed = readFileSync(join(repoRoot, 'sdk/src/generated/openapi.ts'), 'utf8');
  assert.ok(
    committed === readFileSync(out, 'utf8'),
    'sdk/src/generated/openapi.ts is stale: run `npm run generate` and commit the result',
  );
});
