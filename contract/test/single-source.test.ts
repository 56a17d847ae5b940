// The contract is said once: outside this package no code reaches into the generated types by a
// schema's name (`components['schemas']['X']`) or imports a generated file; it imports the named type.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const sources = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.mjs'], {
  cwd: repoRoot,
  encoding: 'utf8',
})
  .split('\n')
  .filter((file) => file && !file.startsWith('contract/'));

test('no code outside the contract package restates a schema by name or imports a generated contract file', () => {
  const offences = sources.flatMap((file) => {
    const text = readFileSync(join(repoRoot, file), 'utf8');
    const found: string[] = [];
    for (const match of text.matchAll(/(?:\['schemas'\]|\bSchemas)\['(\w+)'\]/g)) found.push(`${file}: ${match[0]}`);
    for (const match of text.matchAll(/from '[^']*generated\/(?:openapi|schemas|operations|webhook-shape)\.js'/g))
      found.push(`${file}: ${match[0]}`);
    return found;
  });
  assert.deepEqual(offences, []);
});
