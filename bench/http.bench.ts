// HTTP benchmark (issue 20): the reference server as `npm start` runs it (NODE_ENV=production, its own
// process), against a bare Express JSON route in the same run, both loaded by autocannon on loopback.
// Cosmos is the embedded emulator with the server's own patches, in a process of its own so that the
// benchmark can seed stored validations directly; the last rows run the same server with its store
// stubbed in memory (support/stub-store.ts), to show what the store costs. Prints one table; nothing
// is asserted.
//
// Usage: npm run bench -- http [--records=100000] [--seconds=5]

import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { stringify } from 'yaml';
import { openCosmos } from '../server/src/cosmos/cosmos.js';
import { createLogger } from '../server/src/logger.js';
import { generateApiKey } from '../server/src/services/auth/api-keys.js';
import { numberArgument } from './support/bench-server.js';
import { startPatchedEmulator } from './support/patched-emulator.js';

const records = numberArgument('records', 100_000);
const seconds = numberArgument('seconds', 5);
const repo = fileURLToPath(new URL('..', import.meta.url));
setTimeout(
  () => {
    console.error('http benchmark: gave up after 30 minutes');
    process.exit(2);
  },
  30 * 60 * 1000,
).unref();

const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const child of children) child.kill();
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function startBare(): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(repo, 'bench/support/bare-express.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const port = await new Promise<string>((resolve) => child.stdout!.once('data', (chunk) => resolve(String(chunk).trim())));
  return `http://127.0.0.1:${port}`;
}

/** The server in its own process: on the emulator at `cosmosEndpoint`, or on the in-process stub store when null. */
async function startServer(cosmosEndpoint: string | null, apiKeySha: string, apiKeyId: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'gc-http-bench-'));
  const tenantsFile = join(dir, 'tenants.yaml');
  writeFileSync(
    tenantsFile,
    stringify({
      tenants: [
        {
          customer_id: 'bench',
          name: 'Bench',
          features: { document_templates: false, audit_trail: true },
          rate_limit: { requests: 1_000_000, window_seconds: 1 },
          workflow: { review_required: 'when_issues' },
          api_keys: [{ id: apiKeyId, role: 'user', sha256: apiKeySha }],
          auth: { local: { users: [] } },
        },
      ],
    }),
  );
  const port = await freePort();
  const entry = cosmosEndpoint ? 'server/src/main.ts' : 'bench/support/stub-store-server.ts';
  const child = spawn(process.execPath, ['--import', 'tsx', join(repo, entry)], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      TENANTS_FILE: tenantsFile,
      ...(cosmosEndpoint ? { COSMOS_ENDPOINT: cosmosEndpoint, COSMOS_KEY: Buffer.from('benchmark').toString('base64') } : {}),
      JWT_SECRET: generateApiKey().key,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600 && child.exitCode === null; i++) {
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return url;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the server did not become ready');
}

interface Row {
  route: string;
  connections: number;
  stored: number;
  rps: number;
  p50: number;
  p99: number;
  failed: number;
}

/** `keyed`: each request with a new Idempotency-Key, as the SDK sends them (a lease held, the answer kept). */
async function load(route: string, url: string, body: object, connections: number, stored: number, keyed = false): Promise<Row> {
  const result = await autocannon({
    url,
    method: 'POST',
    connections,
    duration: seconds,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...(keyed && {
      requests: [{ setupRequest: (request) => ({ ...request, headers: { ...request.headers, 'idempotency-key': randomUUID() } }) }],
    }),
  });
  return {
    route,
    connections,
    stored,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: result.non2xx + result.errors + result.timeouts,
  };
}

/** Clones one stored validation record `count` times, 100 per transactional batch, into the tenant's partition. */
async function seed(endpoint: string, validationId: string, count: number): Promise<void> {
  const cosmos = await openCosmos({
    cosmos: { endpoint, key: Buffer.from('benchmark').toString('base64') },
    databaseId: 'groundcheck',
    log: createLogger('warn'),
  });
  const history = cosmos.container('history');
  const { resource } = await history.item(validationId, 'bench').read<Record<string, unknown>>();
  if (!resource) throw new Error('no record to clone');
  const { _rid, _self, _etag, _attachments, _ts, ...original } = resource;
  const start = Date.now() - count * 1000;
  for (let done = 0; done < count; done += 100) {
    const operations: Parameters<typeof history.items.batch>[0] = [];
    for (let i = done; i < Math.min(count, done + 100); i++) {
      const id = `val_seed${String(i).padStart(18, '0')}`;
      const createdAt = new Date(start + i * 1000).toISOString();
      operations.push({
        operationType: 'Create',
        partitionKey: 'bench',
        resourceBody: { ...original, id, validation_id: id, created_at: createdAt, outbox: [], outbox_pending: false } as never,
      });
    }
    const response = await history.items.batch(operations, 'bench');
    if (!response.result?.every((r: { statusCode: number }) => r.statusCode < 300)) throw new Error('seed batch failed');
  }
  await cosmos.close();
}

const key = generateApiKey();
const { endpoint, child: emulator } = await startPatchedEmulator();
children.push(emulator);
const bare = await startBare();
const server = await startServer(endpoint, key.sha256, key.id);
const credentials = { customer_id: 'bench', api_key: key.key };
const source =
  'Full-time employees are entitled to 25 days of paid leave per calendar year. Part-time employees receive leave in proportion to their contracted hours. Leave must be requested at least two weeks in advance through the HR portal, and requests of more than ten consecutive days need a manager’s written approval. Unused leave of up to five days may be carried over into the first quarter of the next year; anything beyond that lapses on 31 December. Employees in their probation period accrue leave from the first day but may take it only after the third month. Public holidays are not counted as leave days. ';
const validateBody = {
  ...credentials,
  mode: 'validate',
  question: 'How many days of paid leave do full-time employees get, and can I carry any over?',
  chatbot_response: 'Full-time employees get 30 days of paid leave per year, and up to five unused days can be carried into the next year.',
  inline_text: source.repeat(2),
};
console.log(
  `http benchmark: ${seconds} s per row, loopback, validate body ${JSON.stringify(validateBody).length} bytes; server NODE_ENV=production in its own process, Cosmos emulator (patched as the server runs it) in another`,
);

const rows: Row[] = [];
rows.push(await load('bare Express POST /x', `${bare}/x`, { hello: 'world' }, 10, 0));
rows.push(await load('POST /auth/me (API key in body)', `${server}/auth/me`, credentials, 10, 0));
const first = await fetch(`${server}/api/v1/validate`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(validateBody),
}).then((r) => r.json() as Promise<{ validation_id: string }>);
// Warm-up, not counted: the JIT, the engine's worker threads and the emulator's first documents.
await load('warm-up', `${server}/api/v1/validate`, validateBody, 10, 0);
rows.push(await load('POST /api/v1/validate', `${server}/api/v1/validate`, validateBody, 10, 0));
rows.push(await load('POST /api/v1/validate', `${server}/api/v1/validate`, validateBody, 50, 0));
rows.push(await load('POST /api/v1/validate, a new Idempotency-Key each', `${server}/api/v1/validate`, validateBody, 10, 0, true));
rows.push(await load('POST /api/v1/history {limit: 25}', `${server}/api/v1/history`, { ...credentials, limit: 25 }, 10, 0));
const seeded = Date.now();
await seed(endpoint, first.validation_id, records);
console.log(`seeded ${records} stored validations in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);
rows.push(await load('POST /api/v1/validate', `${server}/api/v1/validate`, validateBody, 10, records));
rows.push(await load('POST /api/v1/history {limit: 25}', `${server}/api/v1/history`, { ...credentials, limit: 25 }, 10, records));
// The same server with its store stubbed in its own memory: what a request costs without Cosmos DB.
const stubbed = await startServer(null, key.sha256, key.id);
await load('warm-up', `${stubbed}/api/v1/validate`, validateBody, 10, 0);
rows.push(await load('POST /auth/me, store stubbed', `${stubbed}/auth/me`, credentials, 10, 0));
rows.push(await load('POST /api/v1/validate, store stubbed', `${stubbed}/api/v1/validate`, validateBody, 10, 0));

const baseline = rows[0]!.rps;
console.log('\n| route | connections | seeded validations | req/s | p50 ms | p99 ms | failed | share of bare Express |');
console.log('|---|---|---|---|---|---|---|---|');
for (const r of rows)
  console.log(
    `| ${r.route} | ${r.connections} | ${r.stored} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.failed} | ${((r.rps / baseline) * 100).toFixed(1)}% |`,
  );
process.exit(0);
