// The contract's generated files (types, schema aliases, runtime tables, webhook shape) match a fresh
// run of scripts/generate.mjs over openapi.yaml, and the tables agree with what the server reads from it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadContract } from '../../server/src/contract/contract.js';
import { apiKeyPaths, idempotentPaths, openPaths } from '../src/generated/operations.js';

const contractRoot = fileURLToPath(new URL('..', import.meta.url));

test('src/generated is what scripts/generate.mjs produces from openapi.yaml', () => {
  const out = mkdtempSync(join(tmpdir(), 'gc-sdk-generated-'));
  try {
    const result = spawnSync(process.execPath, ['scripts/generate.mjs', out], { cwd: contractRoot, encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(readdirSync(out).sort(), ['audit-facts.ts', 'openapi.ts', 'operations.ts', 'schemas.ts', 'webhook-shape.ts']);
    for (const file of readdirSync(out)) {
      assert.ok(
        readFileSync(join(out, file), 'utf8') === readFileSync(join(contractRoot, 'src/generated', file), 'utf8'),
        `contract/src/generated/${file} is stale: run \`npm run generate\``,
      );
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('the operation tables agree with the contract as the server reads it', () => {
  const operations = loadContract().operations;
  assert.deepEqual(
    [...apiKeyPaths].sort(),
    operations
      .filter((o) => o.acceptsApiKey)
      .map((o) => o.pathTemplate)
      .sort(),
  );
  assert.deepEqual(
    [...openPaths].sort(),
    operations
      .filter((o) => o.requiredRole === 'none')
      .map((o) => o.pathTemplate)
      .sort(),
  );
  assert.deepEqual(
    [...idempotentPaths],
    operations.filter((o) => o.idempotent).map((o) => o.pathTemplate),
  );
  // Every operation that changes something takes a key, but the account deletion (its retry could only be refused).
  assert.ok(idempotentPaths.includes('/api/v1/validate') && idempotentPaths.includes('/api/v1/sources/group/save'));
  assert.ok(!idempotentPaths.includes('/api/v1/account/delete' as never));
  assert.ok(!apiKeyPaths.some((path) => path.includes('/saas/') || path.includes('/account/')));
});
