// Installs a packed workspace package into a new project as a customer's `npm install` would, with
// no registry: the project's lockfile is cut from this repository's (the versions `npm ci` put in
// the npm cache), so `npm ci --offline` finds every tarball there. Tests must not reach the
// registry, and `npm install <tarball> --offline` cannot resolve ranges without registry metadata.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

type LockEntry = {
  version?: string;
  link?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [field: string]: unknown;
};

/** Flags that describe an entry's place in this repository's tree, not in the new project's. */
const repositoryFlags = ['dev', 'devOptional', 'peer', 'optional', 'extraneous'];

/**
 * Writes `package.json` and `package-lock.json` into `project` (an empty folder) for a project that
 * depends on `tarball` only, then runs `npm ci --offline` there. `workspace` is the package's folder
 * in this repository (`sdk`, `mock`), where its own lock entry and nested dependencies sit.
 */
export function installPackedPackage(project: string, tarball: string, workspace: string): void {
  const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const own = lock.packages[workspace];
  if (!own?.version) throw new Error(`${workspace} is not a workspace of this repository`);
  const name = String(own.name);
  const installedAt = `node_modules/${name}`;
  const spec = `file:./${basename(tarball)}`;
  const packages: Record<string, LockEntry> = {
    '': { name: 'customer-project', version: '1.0.0', dependencies: { [name]: spec } },
    [installedAt]: {
      ...withoutRepositoryFlags(own),
      resolved: spec,
      integrity: `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`,
    },
  };
  delete packages[installedAt]!.name;
  delete packages[installedAt]!.devDependencies;

  // Node's resolution over the repository's tree, from the workspace folder outwards.
  const pending: { from: string; entry: LockEntry }[] = [{ from: workspace, entry: own }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    // npm installs peers too, unless they are marked optional.
    const peers = Object.keys(next.entry.peerDependencies ?? {}).filter((peer) => !next.entry.peerDependenciesMeta?.[peer]?.optional);
    const wanted = [...Object.keys({ ...next.entry.dependencies, ...next.entry.optionalDependencies }), ...peers];
    for (const dependency of new Set(wanted)) {
      const location = resolve(lock.packages, next.from, dependency);
      if (!location) {
        if (next.entry.optionalDependencies?.[dependency]) continue;
        throw new Error(`${dependency} (needed from ${next.from || 'the root'}) is not in package-lock.json`);
      }
      const target = location.startsWith(`${workspace}/`) ? `${installedAt}/${location.slice(workspace.length + 1)}` : location;
      if (packages[target]) continue;
      const entry = lock.packages[location]!;
      if (entry.link) throw new Error(`${dependency} is a workspace link; pack it too`);
      packages[target] = withoutRepositoryFlags(entry);
      pending.push({ from: location, entry });
    }
  }

  writeFileSync(join(project, 'package.json'), `${JSON.stringify(packages['']!, null, 2)}\n`);
  writeFileSync(
    join(project, 'package-lock.json'),
    `${JSON.stringify({ name: 'customer-project', version: '1.0.0', lockfileVersion: 3, requires: true, packages }, null, 2)}\n`,
  );
  const result = spawnSync('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], {
    cwd: project,
    encoding: 'utf8',
    timeout: 300_000,
    // --offline answers from the cache only: a miss fails here instead of reaching the registry.
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  if (result.status !== 0) throw new Error(`npm ci --offline failed:\n${result.stdout}${result.stderr}`);
}

/** Where Node finds `dependency` from a package at `from`: its own node_modules, then each parent's. */
function resolve(packages: Record<string, LockEntry>, from: string, dependency: string): string | undefined {
  let at = from;
  for (;;) {
    const candidate = `${at ? `${at}/` : ''}node_modules/${dependency}`;
    if (packages[candidate]) return candidate;
    if (!at) return undefined;
    const parent = at.lastIndexOf('/node_modules/');
    at = parent === -1 ? '' : at.slice(0, parent);
  }
}

function withoutRepositoryFlags(entry: LockEntry): LockEntry {
  const copy = { ...entry };
  for (const flag of repositoryFlags) delete copy[flag];
  return copy;
}
