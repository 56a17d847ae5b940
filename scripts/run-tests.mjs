// Runs the test suite. `node scripts/run-tests.mjs` (npm test) runs everything: format and lint,
// builds, type-check, then every *.test.ts through Node's test runner. With a suite's name first
// (npm run test:unit, test:contract, test:e2e, test:integration) it runs that suite's files only,
// after the builds they need. Other arguments go to `node --test`.
// Node 20's runner does not expand globs, so the files are listed here.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

// examples/ holds the contract-test example's own tests, run as a customer would run them.
const roots = ['contract/test', 'test', 'sdk/test', 'server/test', 'mock/test', 'examples'];

/** Each suite by the folders and files it holds; a test in none of them is an integration test. */
const suites = {
  // No server, emulator, Prism, browser or build: the engine, pure helpers, the tenant file, the import
  // rules, and the SDK against stand-ins of its own.
  unit: [
    'contract/test/canonical-json.test.ts',
    'server/test/engine/',
    'server/test/lib/',
    'server/test/tenants/',
    'server/test/services/periodic-pass.test.ts',
    'server/test/architecture.test.ts',
    'server/test/verifiers/entailment',
    'server/test/verifiers/judge-settings.test.ts',
    'server/test/verifiers/judge-prompt.test.ts',
    'server/test/verifiers/judge-quote.test.ts',
    'server/test/verifiers/judge-concurrency.test.ts',
    'sdk/test/errors.test.ts',
    'sdk/test/pagination.test.ts',
    'sdk/test/requests.test.ts',
    'sdk/test/retries.test.ts',
    'sdk/test/timeouts.test.ts',
    'sdk/test/types.test.ts',
    'sdk/test/webhooks.test.ts',
  ],
  // The contract itself, its tooling, and the server and the mock held to it.
  contract: ['contract/test/', 'test/contract/', 'server/test/contract/', 'mock/test/', 'examples/contract-test/'],
  // What a customer or an operator runs: the README, the examples, the packed packages, the compiled
  // server, the container image's steps, the API reference and the console in Chromium.
  e2e: [
    'test/e2e/',
    'test/docs/',
    'test/console/',
    'test/deploy/',
    'sdk/test/package.test.ts',
    'sdk/test/size.test.ts',
    'server/test/process.test.ts',
  ],
};
/** Suites that import the built SDK or mock (the examples, the packed packages, the mock's tests). */
const needsBuilds = new Set(['contract', 'e2e', 'integration']);

const [first, ...rest] = process.argv.slice(2);
const suite = first && !first.startsWith('-') ? first : undefined;
const nodeArgs = suite ? rest : process.argv.slice(2);
if (suite && suite !== 'integration' && !(suite in suites)) {
  console.error(`unknown suite ${suite}: one of ${[...Object.keys(suites), 'integration'].join(', ')}`);
  process.exit(2);
}

const all = roots
  .flatMap((root) => walk(root))
  .filter((f) => f.endsWith('.test.ts'))
  .sort();
const suiteOf = (file) =>
  Object.keys(suites).find((name) => suites[name].some((entry) => file === entry || file.startsWith(entry))) ?? 'integration';
const files = suite ? all.filter((file) => suiteOf(file) === suite) : all;

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
if (!suite) run('npx', ['biome', 'ci', '.']);
// Everything imports the contract package as built, so a change to it counts at once.
run('npm', ['run', 'build', '-w', '@groundcheck/contract']);
// The examples import the built SDK, as a customer's code would; the mock's tests use the built
// package, whose copy of openapi.yaml the build makes.
if (!suite || needsBuilds.has(suite)) {
  run('npm', ['run', 'build', '-w', '@groundcheck/sdk']);
  run('npm', ['run', 'build', '-w', '@groundcheck/mock']);
}
// The console's browser tests load its build, which type-checks it first.
if (!suite || suite === 'e2e') run('npm', ['run', 'build', '-w', '@groundcheck/console']);
if (!suite) run('npx', ['tsc', '-p', 'tsconfig.json']);
// Two files at a time on two cores: most tests wait on servers, child processes and the browser.
const concurrency = nodeArgs.some((arg) => arg.startsWith('--test-concurrency')) ? [] : ['--test-concurrency=2'];
run(process.execPath, ['--import', 'tsx', '--test', ...concurrency, ...nodeArgs, ...files]);
