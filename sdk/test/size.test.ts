// The size budget: `npm run size` (esbuild, minified, gzipped ESM entry with openapi-fetch) under 10 kB.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

test('the minified, gzipped ESM bundle stays under 10 240 bytes', () => {
  const result = spawnSync(process.execPath, ['scripts/size.mjs'], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, result.stdout + result.stderr);
  const gzipped = Number(/(\d+) B gzipped/.exec(result.stdout)?.[1]);
  assert.ok(gzipped > 2000 && gzipped <= 10_240, result.stdout);
});
