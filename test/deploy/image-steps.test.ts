// The container image's recipe, performed outside a container (no container engine runs here): the
// runtime stage of the Dockerfile is read and its steps are done in a temporary folder — the files it
// copies, its production install (from the npm cache, offline), the compiled server from the build
// stage, its environment and its command — and the server it starts must become ready against a
// Cosmos DB and a storage account (the emulators, on loopback, standing in for Azure).
import assert from 'node:assert/strict';
import { type ChildProcess, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { azuriteAccount, type EmbeddedAzurite, startEmbeddedAzurite } from '../../server/src/blobs/embedded-azurite.js';
import { createEmbeddedCosmos } from '../../server/src/cosmos/embedded-cosmos.js';
import { generateApiKey } from '../../server/src/services/auth/api-keys.js';
import { startServerProcess } from '../../server/test/support/server-process.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));

interface RuntimeStage {
  env: Record<string, string>;
  copies: { from: string[]; to: string }[];
  fromBuild: { from: string; to: string }[];
  installs: string[][];
  command: string[];
}

/** The runtime stage of the Dockerfile, as the steps this test performs. */
function runtimeStage(): RuntimeStage {
  const text = readFileSync(join(repo, 'Dockerfile'), 'utf8').replace(/\\\n\s*/g, ' ');
  const lines = text.split('\n').map((line) => line.trim());
  const start = lines.findIndex((line) => /^FROM \S+ AS runtime$/i.test(line));
  assert.ok(start >= 0, 'the Dockerfile has a stage named runtime');
  const stage: RuntimeStage = { env: {}, copies: [], fromBuild: [], installs: [], command: [] };
  for (const line of lines.slice(start + 1)) {
    if (/^FROM /i.test(line)) break;
    const [instruction, ...rest] = line.split(/\s+/);
    if (instruction === 'ENV') for (const pair of rest) stage.env[pair.split('=')[0]!] = pair.split('=').slice(1).join('=');
    if (instruction === 'COPY' && rest[0]?.startsWith('--from=')) stage.fromBuild.push({ from: rest[1]!, to: rest[2]! });
    else if (instruction === 'COPY') stage.copies.push({ from: rest.slice(0, -1), to: rest.at(-1)! });
    if (instruction === 'RUN')
      stage.installs.push(
        ...rest
          .join(' ')
          .split('&&')
          .map((part) => part.trim().split(/\s+/))
          .filter((words) => words[0] === 'npm' && words[1] === 'ci'),
      );
    if (instruction === 'CMD') stage.command = JSON.parse(rest.join(' '));
  }
  return stage;
}

describe('the container image, step by step outside a container', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gc-image-'));
  const stage = runtimeStage();
  const emulator = createEmbeddedCosmos();
  let azurite: EmbeddedAzurite;
  let child: ChildProcess | null = null;

  before(async () => {
    await new Promise<void>((resolve) => emulator.listen(0, '127.0.0.1', resolve));
    azurite = await startEmbeddedAzurite();
    // COPY from the build context.
    for (const { from, to } of stage.copies) {
      for (const source of from) {
        // A directory's contents are copied into the destination, as Docker does; a file keeps its name under a folder.
        const target = statSync(join(repo, source)).isDirectory()
          ? join(dir, to)
          : to.endsWith('/') || from.length > 1
            ? join(dir, to, source.split('/').at(-1)!)
            : join(dir, to === './' ? source : to);
        mkdirSync(dirname(target), { recursive: true });
        cpSync(join(repo, source), target, { recursive: true });
      }
    }
    // RUN npm ci …, from the npm cache only: the test sends nothing beyond loopback.
    for (const [, ...args] of stage.installs)
      execFileSync('npm', [...args, '--offline', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'pipe' });
    // COPY --from=build: the build stage's `npm run build -w @groundcheck/server` (the contract package,
    // then the server), compiled into place, and the console built by Vite (from the SDK the suite built).
    const builds = new Map([
      ['/app/contract/dist', 'contract/tsconfig.build.json'],
      ['/app/server/dist', 'server/tsconfig.build.json'],
      ['/app/console/dist', 'console'],
    ]);
    for (const { from, to } of stage.fromBuild) {
      const project = builds.get(from);
      assert.ok(project, `the build stage yields ${from}`);
      if (project === 'console') {
        execFileSync(process.execPath, [join(repo, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
          cwd: join(repo, 'console'),
          env: { ...process.env, CONSOLE_OUT_DIR: join(dir, to) },
          stdio: 'pipe',
        });
        continue;
      }
      execFileSync(
        process.execPath,
        [join(repo, 'node_modules/typescript/bin/tsc'), '-p', join(repo, project), '--outDir', join(dir, to)],
        {
          stdio: 'pipe',
        },
      );
    }
  });

  after(async () => {
    child?.kill('SIGKILL');
    emulator.closeAllConnections();
    await new Promise<void>((resolve) => emulator.close(() => resolve()));
    await azurite.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('installs production dependencies only: the emulators stay out', () => {
    assert.ok(existsSync(join(dir, 'node_modules/express')) || existsSync(join(dir, 'server/node_modules/express')));
    for (const emulatorPackage of ['azurite', '@vercel/cosmosdb-server', 'tsx']) {
      assert.ok(!existsSync(join(dir, 'node_modules', emulatorPackage)), `${emulatorPackage} is not installed`);
      assert.ok(!existsSync(join(dir, 'server/node_modules', emulatorPackage)), `${emulatorPackage} is not installed`);
    }
  });

  it('holds the shipped entailment model where the compiled server looks for it', () => {
    for (const file of ['model.onnx', 'tokenizer.json', 'config.json'])
      assert.ok(existsSync(join(dir, 'server/models/groundcheck-nli', file)), file);
  });

  it('refuses to start without an account, naming what to set, as the emulators are not there', () => {
    const result = (() => {
      try {
        execFileSync(stage.command[0]!, stage.command.slice(1), {
          cwd: dir,
          env: { PATH: process.env.PATH, ...stage.env, HOST: '127.0.0.1', PORT: '0' },
          stdio: 'pipe',
          timeout: 60_000,
        });
        return { status: 0, output: '' };
      } catch (error) {
        const failed = error as { status: number; stdout: Buffer; stderr: Buffer };
        return { status: failed.status, output: `${failed.stdout}${failed.stderr}` };
      }
    })();
    assert.equal(result.status, 1);
    assert.match(result.output, /COSMOS_ENDPOINT/);
  });

  it('starts from the compiled server with the image environment and becomes ready against the accounts', async () => {
    const key = generateApiKey();
    const tenantsFile = join(dir, 'tenants.yaml');
    writeFileSync(
      tenantsFile,
      stringify({
        tenants: [
          {
            customer_id: 'harbour',
            name: 'Harbour',
            api_keys: [{ id: key.id, role: 'user', sha256: key.sha256 }],
            auth: { local: { users: [] } },
          },
        ],
      }),
    );
    const started = await startServerProcess(
      {
        ...stage.env,
        LOG_LEVEL: 'warn',
        TENANTS_FILE: tenantsFile,
        JWT_SECRET: generateApiKey().key,
        COSMOS_ENDPOINT: `http://127.0.0.1:${(emulator.address() as AddressInfo).port}`,
        COSMOS_KEY: Buffer.from('image-steps').toString('base64'),
        AZURE_STORAGE_CONNECTION_STRING: `DefaultEndpointsProtocol=http;AccountName=${azuriteAccount.name};AccountKey=${azuriteAccount.key};BlobEndpoint=${azurite.endpoint};`,
      },
      // The image's command; the image listens on every interface, the test keeps to loopback.
      { command: stage.command, cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    child = started.child;
    const { url } = started;
    assert.equal((await fetch(`${url}/healthz`)).status, 200, 'the HEALTHCHECK probe answers');
    const me = await fetch(`${url}/auth/me`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ customer_id: 'harbour', api_key: key.key }),
    });
    assert.equal(me.status, 200, await me.text());
    const consolePage = await fetch(`${url}/console/`);
    assert.equal(consolePage.status, 200, 'the image serves the console');
    assert.match(await consolePage.text(), /<div id="root">/);
  });
});
