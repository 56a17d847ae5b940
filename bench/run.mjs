// Runs every bench/*.bench.ts in turn, each in its own Node process (not part of npm test).
// `npm run bench -- audit-export --events=50000` runs the benchmarks whose file name contains
// "audit-export" and passes the other arguments on; `npm run bench -- account-export --records=20000`
// runs the account export benchmark on a smaller tenant.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const filters = args.filter((arg) => !arg.startsWith('--'));
const options = args.filter((arg) => arg.startsWith('--'));
const dir = fileURLToPath(new URL('.', import.meta.url));
const files = readdirSync(dir)
  .filter((name) => name.endsWith('.bench.ts') && (filters.length === 0 || filters.some((filter) => name.includes(filter))))
  .sort();
if (files.length === 0) {
  console.error(`no benchmark matches ${filters.join(', ')}`);
  process.exit(1);
}
for (const name of files) {
  console.log(`\n== ${name}`);
  // --expose-gc lets a benchmark start each measurement from a collected heap.
  const result = spawnSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', fileURLToPath(new URL(name, import.meta.url)), ...options],
    { stdio: 'inherit' },
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}
