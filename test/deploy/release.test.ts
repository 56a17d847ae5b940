// The release flow of the two published packages: the workflow's order (tests, then changesets with
// npm provenance), what each package carries (licence, changelog, where it comes from), and a real
// `changeset version` on a copy of the workspace manifests, which bumps both packages together.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { parse } from 'yaml';
import { repoRoot } from '../support/spec.js';

type Manifest = {
  name: string;
  version: string;
  private?: boolean;
  license: string;
  files?: string[];
  repository?: { type: string; url: string; directory: string };
  homepage?: string;
  bugs?: { url: string };
};

const read = (path: string) => readFileSync(join(repoRoot, path), 'utf8');
const rootManifest = JSON.parse(read('package.json')) as { workspaces: string[]; license: string };
const workspaces = rootManifest.workspaces.map((folder) => ({ folder, manifest: JSON.parse(read(`${folder}/package.json`)) as Manifest }));
const published = workspaces.filter((w) => !w.manifest.private);
const changesetConfig = JSON.parse(read('.changeset/config.json')) as { fixed: string[][]; access: string };

describe('the published packages', () => {
  test('are the SDK and the mock', () => {
    assert.deepEqual(published.map((w) => w.manifest.name).sort(), ['@groundcheck/mock', '@groundcheck/sdk']);
  });

  for (const { folder, manifest } of published) {
    test(`${manifest.name} carries the licence, its changelog and where it comes from`, () => {
      assert.equal(manifest.license, rootManifest.license);
      assert.equal(read(`${folder}/LICENSE`), read('LICENSE'));
      assert.match(read('LICENSE'), /Apache License\s+Version 2\.0, January 2004/);
      assert.ok(manifest.files?.includes('CHANGELOG.md'), 'the changelog is packed');
      const changelog = read(`${folder}/CHANGELOG.md`);
      assert.equal(changelog.split('\n')[0], `# ${manifest.name}`);
      assert.equal(/^## (\S+)/m.exec(changelog)?.[1], manifest.version, 'the newest changelog entry is the current version');
      assert.equal(manifest.repository?.directory, folder);
      assert.match(manifest.repository!.url, /^git\+https:\/\/github\.com\/[\w-]+\/[\w-]+\.git$/);
      const repository = manifest.repository!.url.slice('git+'.length, -'.git'.length);
      assert.equal(manifest.homepage, `${repository}/tree/main/${folder}#readme`);
      assert.equal(manifest.bugs?.url, `${repository}/issues`);
    });
  }

  test('share one version, as both follow the same contract', () => {
    assert.equal(changesetConfig.access, 'public');
    assert.deepEqual(
      changesetConfig.fixed.map((group) => [...group].sort()),
      [published.map((w) => w.manifest.name).sort()],
    );
    assert.equal(new Set(published.map((w) => w.manifest.version)).size, 1);
  });
});

describe('the release workflow', () => {
  const workflow = parse(read('.github/workflows/release.yml')) as {
    on: { push: { branches: string[] } };
    permissions: Record<string, string>;
    jobs: Record<
      string,
      { steps: { name?: string; run?: string; uses?: string; with?: Record<string, string>; env?: Record<string, string> }[] }
    >;
  };
  const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);

  test('runs on main, tests first, then versions or publishes with provenance', () => {
    assert.deepEqual(workflow.on.push.branches, ['main']);
    assert.equal(workflow.permissions['id-token'], 'write', 'npm provenance needs the OIDC token');
    const testStep = steps.findIndex((step) => step.run === '.ci/run');
    const releaseStep = steps.findIndex((step) => step.uses?.startsWith('changesets/action@'));
    assert.ok(testStep >= 0 && releaseStep > testStep, 'the suite runs before anything is published');
    const release = steps[releaseStep]!;
    assert.equal(release.with?.publish, 'npx changeset publish');
    assert.equal(release.with?.version, 'npx changeset version');
    assert.equal(release.env?.NPM_CONFIG_PROVENANCE, 'true');
    assert.match(release.env?.NODE_AUTH_TOKEN ?? '', /^\$\{\{ secrets\.\w+ \}\}$/, 'the npm token comes from a secret');
  });
});

describe('the supported runtimes', () => {
  const tested = (parse(read('.github/workflows/test.yml')) as { jobs: { test: { strategy: { matrix: { 'node-version': number[] } } } } })
    .jobs.test.strategy.matrix['node-version'];

  test("the suite runs on every Node.js line from the packages' minimum to the one the image is built on", () => {
    const minimum = Number(/^>=(\d+)$/.exec((JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node)?.[1]);
    const images = [...read('Dockerfile').matchAll(/^FROM node:(\d+)-\S+ AS \w+$/gm)].map((match) => Number(match[1]));
    assert.equal(images.length, 2, 'both stages name their Node.js line');
    assert.equal(new Set(images).size, 1, 'the build and the runtime run one line');
    const image = images[0]!;
    assert.ok(image % 2 === 0 && image > minimum, 'the image runs a newer LTS line than the minimum');
    const lts = Array.from({ length: (image - minimum) / 2 + 1 }, (_, i) => minimum + 2 * i);
    assert.deepEqual(tested, lts, "every LTS line from the minimum to the image's");
    assert.ok(tested.includes(Number(process.versions.node.split('.')[0])), 'including the one this suite runs on now');
  });
});

describe('changeset version', () => {
  const work = mkdtempSync(join(tmpdir(), 'gc-release-'));
  after(() => rmSync(work, { recursive: true, force: true }));

  test('applies a pending changeset to both packages and their changelogs, and leaves the private ones alone', () => {
    for (const path of ['package.json', '.changeset/config.json', ...workspaces.flatMap((w) => [`${w.folder}/package.json`])]) {
      mkdirSync(dirname(join(work, path)), { recursive: true });
      cpSync(join(repoRoot, path), join(work, path));
    }
    for (const { folder } of published) cpSync(join(repoRoot, folder, 'CHANGELOG.md'), join(work, folder, 'CHANGELOG.md'));
    writeFileSync(join(work, '.changeset', 'quiet-tests-sing.md'), `---\n"@groundcheck/sdk": minor\n---\n\nA new option for the client.\n`);
    const result = spawnSync(join(repoRoot, 'node_modules', '.bin', 'changeset'), ['version'], {
      cwd: work,
      encoding: 'utf8',
      timeout: 120_000,
    });
    assert.equal(result.status, 0, `${result.stdout}${result.stderr}`);

    const [major, minor] = published[0]!.manifest.version.split('.').map(Number) as [number, number];
    const next = `${major}.${minor + 1}.0`;
    for (const { folder, manifest } of published) {
      assert.equal(JSON.parse(readFileSync(join(work, folder, 'package.json'), 'utf8')).version, next, manifest.name);
      assert.match(readFileSync(join(work, folder, 'CHANGELOG.md'), 'utf8'), new RegExp(`^## ${next.replaceAll('.', '\\.')}$`, 'm'));
    }
    assert.match(readFileSync(join(work, 'sdk', 'CHANGELOG.md'), 'utf8'), /A new option for the client\./);
    for (const { folder, manifest } of workspaces.filter((w) => w.manifest.private)) {
      assert.equal(JSON.parse(readFileSync(join(work, folder, 'package.json'), 'utf8')).version, manifest.version, manifest.name);
    }
  });
});
