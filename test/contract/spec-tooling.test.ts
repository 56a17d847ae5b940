import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { repoRoot, specPath } from '../support/spec.js';

const bin = (name: string) => join(repoRoot, 'node_modules', '.bin', name);

test('swagger-parser validates openapi.yaml', async () => {
  await SwaggerParser.validate(specPath);
});

test('Redocly lint reports no problem', () => {
  const result = spawnSync(bin('redocly'), ['lint', specPath, '--format=stylish'], { cwd: join(repoRoot, 'contract'), encoding: 'utf8' });
  assert.equal(result.status, 0, result.stdout + result.stderr);
  assert.match(result.stdout + result.stderr, /Your API description is valid/);
  assert.doesNotMatch(result.stdout + result.stderr, /\d+ (errors?|warnings?)\b/);
});
