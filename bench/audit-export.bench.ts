// Audit export memory benchmark: exports 200 000 events of one tenant as JSON and CSV over HTTP
// and compares the memory the export takes with an export of 20 000 events. A streamed export
// needs the same memory for both; one that collects the events first needs ten times as much.
//
// The server runs in this process (its heap is what is measured); the Cosmos emulator runs in a
// child process so that its own memory stays out of the figures. Everything listens on 127.0.0.1.
//
// Usage: npm run bench -- audit-export [--events=200000] [--baseline=20000]
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { generateApiKey } from '../server/src/auth/api-keys.js';
import { loadConfig } from '../server/src/config.js';
import { buildContainer } from '../server/src/container.js';
import { createLogger } from '../server/src/logger.js';
import { listen, type RunningServer } from '../server/src/server.js';
import { AuditStore } from '../server/src/store/audit-store.js';
import { loadTenantFile } from '../server/src/tenants/tenant-file.js';
import { entriesOfEveryKind, seedChain } from '../server/test/support/audit.js';
import { sampleMemory } from './support/memory-sampler.js';

const emulatorRole = 'AUDIT_BENCH_EMULATOR';
const dayMs = 24 * 60 * 60 * 1000;
const seedChunk = 99 * 100;

interface Measurement {
  label: string;
  events: number;
  bytes: number;
  firstByteMs: number;
  totalMs: number;
  heapGrowthMb: number;
  /** Growth of the heap that survives a full collection: what the export holds on to. */
  liveGrowthMb: number;
  rssGrowthMb: number;
}

if (process.env[emulatorRole]) await runEmulator();
else await runBenchmark();

/**
 * The in-memory Cosmos emulator, in this child process. Its query compiler (@zeit/cosmosdb-query)
 * gathers the documents with `reduce(($, c) => [...$, { c }], [])`, copying the array once per
 * document: quadratic, hours per page at 200 000 items. The same expression as a linear
 * filter + map is patched in here, for the benchmark only. Each page still scans and sorts the
 * whole container, so the export takes minutes here where Cosmos DB serves pages from its index.
 */
async function runEmulator(): Promise<void> {
  const require = createRequire(import.meta.url);
  const serverPath = require.resolve('@vercel/cosmosdb-server');
  const createQuery = createRequire(serverPath)('@zeit/cosmosdb-query').default as (sql: string) => object;
  const prototype = Object.getPrototypeOf(createQuery('SELECT * FROM c'));
  const compile = Object.getOwnPropertyDescriptor(prototype, 'code')!.get!;
  const quadratic = /\$c\.reduce\(\(\$, (\w+)\) => typeof \1 !== "undefined" \? \[\.\.\.\$, \{\s*\1: \1\s*\}\] : \$, \[\]\)/g;
  Object.defineProperty(prototype, 'code', {
    get(this: object) {
      return (compile.call(this) as string).replace(
        quadratic,
        (_, c: string) => `$c.filter((${c}) => typeof ${c} !== "undefined").map((${c}) => ({ ${c}: ${c} }))`,
      );
    },
  });
  if ((createQuery('SELECT * FROM c') as { code: string }).code.includes('[...$')) {
    throw new Error('the emulator no longer generates the expected query code; update the patch in bench/audit-export.bench.ts');
  }
  const { createHttpServer } = require(serverPath) as typeof import('@vercel/cosmosdb-server');
  const emulator = createHttpServer();
  await new Promise<void>((resolve) => emulator.listen(0, '127.0.0.1', resolve));
  process.send!({ port: (emulator.address() as AddressInfo).port });
  // Ends with the benchmark: the parent kills this process, or its IPC channel closes.
  process.on('disconnect', () => process.exit(0));
}

async function startEmulator(): Promise<{ endpoint: string; child: ChildProcess }> {
  const child = fork(fileURLToPath(import.meta.url), [], {
    env: { ...process.env, [emulatorRole]: '1' },
    execArgv: ['--import', 'tsx'],
    stdio: 'inherit',
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message: { port: number }) => resolve(message.port));
    child.once('exit', (code) => reject(new Error(`the emulator exited with ${code}`)));
  });
  return { endpoint: `http://127.0.0.1:${port}`, child };
}

async function runBenchmark(): Promise<void> {
  const large = numberArgument('events', 200_000);
  const baseline = numberArgument('baseline', 20_000);
  // Stop by itself even if something hangs.
  setTimeout(
    () => {
      console.error('audit export benchmark: gave up after 60 minutes');
      process.exit(2);
    },
    60 * 60 * 1000,
  ).unref();

  const { endpoint, child } = await startEmulator();
  const adminKey = generateApiKey();
  const tenantsFile = join(mkdtempSync(join(tmpdir(), 'gc-bench-')), 'tenants.yaml');
  const tenant = (customerId: string) => ({
    customer_id: customerId,
    name: customerId,
    features: { document_templates: false, audit_trail: true },
    rate_limit: { requests: 1_000_000, window_seconds: 60 },
    api_keys: [{ id: adminKey.id, role: 'admin', sha256: adminKey.sha256 }],
    auth: { local: { users: [] } },
  });
  writeFileSync(tenantsFile, stringify({ tenants: [tenant('baseline'), tenant('large')] }));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    TENANTS_FILE: tenantsFile,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    COSMOS_ENDPOINT: endpoint,
    COSMOS_KEY: Buffer.from('benchmark').toString('base64'),
    JWT_SECRET: generateApiKey().key,
  });
  const container = await buildContainer(config, createLogger(config.logLevel));
  const server = await listen(container);
  const tenants = loadTenantFile(tenantsFile, { historyTtlDays: config.historyTtlDays, region: config.region });
  const store = new AuditStore(container.cosmos.container('audit'));

  console.log(`audit export benchmark: ${baseline} and ${large} events, Cosmos emulator in a child process, server in this one`);
  console.log(
    'seeding through AuditStore.append: chained and hashed as in production, but 99 events per transactional batch instead of one',
  );
  const results: Measurement[] = [];
  try {
    for (const [customerId, events] of [
      ['baseline', baseline],
      ['large', large],
    ] as const) {
      const started = Date.now();
      await seed(store, tenants.find((t) => t.customerId === customerId)!, events);
      console.log(`seeded ${events} events for ${customerId} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      for (const format of ['json', 'csv'] as const) {
        const measurement = await measureExport(
          server,
          { customer_id: customerId, api_key: adminKey.key, format },
          `${format} ${events}`,
          events,
        );
        results.push(measurement);
        print(measurement);
      }
    }
  } finally {
    await server.close();
    child.kill();
  }
  console.log(verdict(results));
}

async function seed(store: AuditStore, tenant: Parameters<typeof seedChain>[1], count: number): Promise<void> {
  const entries = entriesOfEveryKind();
  // Spread over the 29 days before now, inside the export's default 30-day window.
  const start = Date.now() - 29 * dayMs;
  const step = Math.floor((29 * dayMs) / count);
  for (let done = 0; done < count; done += seedChunk) {
    await seedChain(store, tenant, Math.min(seedChunk, count - done), (index) => ({
      entry: entries[(done + index) % entries.length]!,
      at: new Date(start + (done + index) * step),
    }));
  }
}

/**
 * Exports over HTTP, reading the body as it arrives, while sampling this process's memory: the
 * heap as it is (garbage included) every 10 ms, and the live heap after a full collection every
 * 250 ms.
 */
async function measureExport(server: RunningServer, body: object, label: string, expectedEvents: number): Promise<Measurement> {
  const memory = sampleMemory();
  const started = performance.now();
  let firstByteMs = 0;
  let bytes = 0;
  let records = 0;
  let tail = '';
  try {
    const response = await fetch(`${server.url}/api/v1/audit/export`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 200) throw new Error(`export answered ${response.status}: ${await response.text()}`);
    const decoder = new TextDecoder();
    const marker = label.startsWith('csv') ? '\r\n' : '"event_id":';
    const reader = response.body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      const chunk = read.value;
      if (bytes === 0) firstByteMs = performance.now() - started;
      bytes += chunk.byteLength;
      // Count records across chunk boundaries without keeping the body.
      const text = tail + decoder.decode(chunk, { stream: true });
      records += text.split(marker).length - 1;
      tail = text.slice(-(marker.length - 1));
    }
  } catch (error) {
    memory.stop();
    throw error;
  }
  const growth = memory.stop();
  const exported = label.startsWith('csv') ? records - 1 : records;
  if (exported !== expectedEvents) throw new Error(`${label}: exported ${exported} events, expected ${expectedEvents}`);
  const totalMs = performance.now() - started;
  return { label, events: exported, bytes, firstByteMs, totalMs, ...growth };
}

function print(m: Measurement): void {
  console.log(
    `${m.label.padEnd(12)} ${(m.bytes / 2 ** 20).toFixed(1).padStart(7)} MiB  first byte ${m.firstByteMs.toFixed(0).padStart(6)} ms  total ${(m.totalMs / 1000).toFixed(1).padStart(6)} s  ` +
      `peak growth: live heap ${m.liveGrowthMb.toFixed(1).padStart(5)} MiB, heap ${m.heapGrowthMb.toFixed(1).padStart(5)} MiB, rss ${m.rssGrowthMb.toFixed(1).padStart(5)} MiB`,
  );
}

/**
 * Memory is flat when the larger export holds on to no more than the smaller one, give or take
 * 8 MiB of sampling noise: an export that collected its events would hold 10x as much.
 */
function verdict(results: Measurement[]): string {
  const lines = ['json', 'csv'].map((format) => {
    const [small, big] = results.filter((m) => m.label.startsWith(format));
    const flat = big!.liveGrowthMb <= small!.liveGrowthMb + 8;
    if (!flat) process.exitCode = 1;
    return (
      `${format}: ${big!.events / small!.events}x the events, live heap growth ${small!.liveGrowthMb} -> ${big!.liveGrowthMb} MiB: ` +
      (flat ? 'flat, memory does not grow with the number of events' : 'GROWS with the number of events')
    );
  });
  return lines.join('\n');
}

function numberArgument(name: string, fallback: number): number {
  const raw = process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1];
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`--${name} must be a positive whole number`);
  return value;
}
