// Runs the whole suite: format and lint, type-check, then every *.test.ts through Node's test runner.
// Node 20's runner does not expand globs, so the files are listed here.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

// examples/ holds the contract-test example's own tests, run as a customer would run them.
const roots = ['test', 'sdk/test', 'server/test', 'mock/test', 'examples'];
const files = roots
  .flatMap((root) => walk(root))
  .filter((f) => f.endsWith('.test.ts'))
  .sort();

function walk(dir) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

function run(command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// Formatting and lint rules (biome.json), over the whole tree.
run('npx', ['biome', 'ci', '.']);
// The examples import the built SDK, as a customer's code would; the mock's tests use the built
// package, whose copy of openapi.yaml the build makes.
run('npm', ['run', 'build', '-w', '@groundcheck/sdk']);
run('npm', ['run', 'build', '-w', '@groundcheck/mock']);
run('npx', ['tsc', '-p', 'tsconfig.json']);
run(process.execPath, ['--import', 'tsx', '--test', ...process.argv.slice(2), ...files]);
