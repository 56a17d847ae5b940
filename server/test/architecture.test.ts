// The import rules that keep the layers apart: routes → services → cosmos and blobs, a pure engine and pure
// helpers. Read from the source files' import statements.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const src = fileURLToPath(new URL('../src/', import.meta.url));

interface Import {
  file: string;
  /** The top-level folder (or root file) of src it points to, or the package name. */
  target: string;
  local: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const layer = (path: string) =>
  relative(src, path)
    .split('/')[0]!
    .replace(/\.[jt]s$/, '');

const imports: Import[] = sourceFiles(src).flatMap((file) =>
  [
    ...readFileSync(file, 'utf8').matchAll(
      /^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm,
    ),
  ].map((match) => {
    const specifier = (match[1] ?? match[2] ?? match[3])!;
    if (!specifier.startsWith('.'))
      return {
        file,
        target: specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!,
        local: false,
      };
    return { file, target: layer(resolve(dirname(file), specifier)), local: true };
  }),
);

const from = (folder: string) => imports.filter((entry) => layer(entry.file) === folder);
const show = (entries: Import[]) => entries.map((entry) => `${relative(src, entry.file)} → ${entry.target}`);

test('the import graph was read', () => {
  assert.ok(from('routes').some((entry) => entry.target === 'services'));
  assert.ok(from('engine').length > 10);
});

test('routes import services, never Cosmos DB, blob storage or the HTTP pipeline', () => {
  assert.deepEqual(show(from('routes').filter((entry) => entry.local && ['cosmos', 'http', 'blobs'].includes(entry.target))), []);
});

test('cosmos/ and blobs/ never import services/, http/ or routes/', () => {
  for (const layer of ['cosmos', 'blobs']) {
    assert.deepEqual(show(from(layer).filter((entry) => entry.local && ['services', 'http', 'routes'].includes(entry.target))), []);
  }
});

test('http/ reaches Cosmos DB and blob storage only through ports/', () => {
  assert.deepEqual(show(from('http').filter((entry) => entry.local && ['cosmos', 'blobs'].includes(entry.target))), []);
});

test('ports/ declare what a layer needs of a store: types only, importing no layer', () => {
  assert.deepEqual(show(from('ports').filter((entry) => !entry.local || entry.target !== 'ports')), []);
});

test('services/ never import the HTTP pipeline or routes', () => {
  assert.deepEqual(show(from('services').filter((entry) => entry.local && ['http', 'routes'].includes(entry.target))), []);
});

test("the engine imports only itself, pure helpers, the contract's types and pure libraries", () => {
  const allowedLocal = ['engine', 'lib'];
  const allowedPackages = ['@groundcheck/contract', 'chrono-node', 'wink-nlp', 'wink-eng-lite-web-model'];
  assert.deepEqual(
    show(from('engine').filter((entry) => (entry.local ? !allowedLocal.includes(entry.target) : !allowedPackages.includes(entry.target)))),
    [],
  );
});

test('lib/ holds pure helpers: no I/O, no other layer', () => {
  const allowedLocal = ['lib', 'errors'];
  const allowedPackages = ['@groundcheck/contract', 'node:crypto', 'csv-stringify'];
  assert.deepEqual(
    show(from('lib').filter((entry) => (entry.local ? !allowedLocal.includes(entry.target) : !allowedPackages.includes(entry.target)))),
    [],
  );
});

/** The engine's stages, each importing only itself and the stages before it (files at its root come last). */
const engineStages = ['language', 'evidence', 'claims', 'checks', 'aggregate'];
const engineRoot = join(src, 'engine');
const stageOf = (path: string) => {
  const first = relative(engineRoot, path).split('/')[0]!;
  return engineStages.includes(first) ? first : 'root';
};

test('the engine runs one way: language → evidence → claims → checks → aggregate → validate, fix, generate', () => {
  const order = [...engineStages, 'root'];
  const backwards = sourceFiles(engineRoot).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]/gm)]
      .map((match) => resolve(dirname(file), match[1]!))
      .filter((target) => target.startsWith(engineRoot))
      .filter((target) => {
        const to = stageOf(target);
        // The aggregator reads the signal type that checks return, and the engine's shared types live at its root.
        if (relative(engineRoot, target) === 'checks/check.js' || relative(engineRoot, target) === 'types.js') return false;
        return order.indexOf(to) > order.indexOf(stageOf(file));
      })
      .map((target) => `${relative(engineRoot, file)} → ${relative(engineRoot, target)}`),
  );
  assert.deepEqual(backwards, []);
});

test("the engine's shared types, which every stage reads, import no file of the engine", () => {
  const local = [
    ...readFileSync(join(engineRoot, 'types.ts'), 'utf8').matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]/gm),
  ];
  assert.deepEqual(
    local.map((match) => match[1]),
    [],
  );
});

/** The folder under services/ that a path is in, or undefined outside services/. */
const serviceFolderOf = (path: string) => {
  const parts = relative(join(src, 'services'), path).split('/');
  return parts.length > 1 && parts[0] !== '..' ? parts[0] : undefined;
};

/** The cycles of a graph given as edges, each as the path that closes it (depth-first search). */
function cyclesOf(edges: Map<string, Set<string>>): string[][] {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const visit = (node: string, path: string[]) => {
    if (path.includes(node)) {
      cycles.push([...path.slice(path.indexOf(node)), node]);
      return;
    }
    if (done.has(node)) return;
    for (const next of edges.get(node) ?? []) visit(next, [...path, node]);
    done.add(node);
  };
  for (const node of edges.keys()) visit(node, []);
  return cycles;
}

test('cyclesOf finds a cycle, and none in a chain', () => {
  const graph = (pairs: [string, string][]) => {
    const edges = new Map<string, Set<string>>();
    for (const [a, b] of pairs) edges.set(a, (edges.get(a) ?? new Set()).add(b));
    return edges;
  };
  assert.deepEqual(
    cyclesOf(
      graph([
        ['a', 'b'],
        ['b', 'c'],
      ]),
    ),
    [],
  );
  assert.deepEqual(
    cyclesOf(
      graph([
        ['a', 'b'],
        ['b', 'c'],
        ['c', 'a'],
      ]),
    ),
    [['a', 'b', 'c', 'a']],
  );
});

test('the folders of services/ import each other one way: no cycle between them', () => {
  const edges = new Map<string, Set<string>>();
  for (const file of sourceFiles(join(src, 'services'))) {
    const from = serviceFolderOf(file);
    if (!from) continue;
    for (const match of readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]/gm)) {
      const to = serviceFolderOf(resolve(dirname(file), match[1]!));
      if (to && to !== from) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
  }
  assert.ok(edges.get('validation')?.has('sources'), 'the graph was read');
  assert.deepEqual(
    cyclesOf(edges).map((cycle) => cycle.join(' → ')),
    [],
  );
});

test('verifiers/ are adapters to models: they import no layer of the server but pure helpers', () => {
  assert.deepEqual(show(from('verifiers').filter((entry) => entry.local && !['verifiers', 'lib'].includes(entry.target))), []);
});
