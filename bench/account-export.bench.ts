import { createHash } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { AuditStore } from '../server/src/cosmos/audit-store.js';
import type { RunningServer } from '../server/src/server.js';
import { hashPassword } from '../server/src/services/auth/passwords.js';
import { cloneHistory } from '../server/test/account/seed.js';
import { entriesOfEveryKind, seedChain } from '../server/test/support/audit.js';
import { numberArgument, startBenchServer } from './support/bench-server.js';
import { sampleMemory } from './support/memory-sampler.js';

const password = 'benchmark-admin-password-2026';

interface FileSummary {
  name: string;
  records: number;
  sha256: string;
  bytes: number;
}
const dayMs = 24 * 60 * 60 * 1000;

interface Measurement {
  customerId: string;
  records: number;
  bytes: number;
  totalMs: number;
  rssGrowthMb: number;
  heapGrowthMb: number;
  /** Growth of the heap that survives a full collection: what the export holds on to. */
  liveGrowthMb: number;
}

const large = numberArgument('records', 200_000);
const baseline = numberArgument('baseline', 20_000);
// Stop by itself even if something hangs.
setTimeout(
  () => {
    console.error('account export benchmark: gave up after 90 minutes');
    process.exit(2);
  },
  90 * 60 * 1000,
).unref();

const dir = mkdtempSync(join(tmpdir(), 'gc-account-bench-'));
const passwordHash = await hashPassword(password);
const tenant = (customerId: string) => ({
  customer_id: customerId,
  name: customerId,
  features: { document_templates: false, audit_trail: true },
  rate_limit: { requests: 1_000_000, window_seconds: 60 },
  auth: { local: { users: [{ email: `admin@${customerId}.test`, name: 'Admin', role: 'admin', password_hash: passwordHash }] } },
});
const { container, server, tenants, close } = await startBenchServer(dir, [tenant('baseline'), tenant('large')]);
const audit = new AuditStore(container.cosmos.container('audit'));

console.log(`account export benchmark: ${baseline} and ${large} history records and audit events per tenant`);
console.log('Cosmos emulator in a child process, server in this one; history cloned from one real validation, 100 per batch');
const results: Measurement[] = [];
try {
  for (const [customerId, count] of [
    ['baseline', baseline],
    ['large', large],
  ] as const) {
    const started = Date.now();
    const token = await login(server, customerId);
    await seed(server, token, customerId, count);
    console.log(
      `seeded ${count} history records and ${count} audit events for ${customerId} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    const measurement = await measureExport(server, token, customerId, count);
    results.push(measurement);
    print(measurement);
  }
} finally {
  await close();
  rmSync(dir, { recursive: true, force: true });
}
console.log(verdict(results));

async function login(server: RunningServer, customerId: string): Promise<string> {
  const response = await post(server, '/auth/login', { email: `admin@${customerId}.test`, password, customer_id: customerId });
  return ((await response.json()) as { token: string }).token;
}

function post(server: RunningServer, path: string, body: object, token?: string): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
}

/** One real validation (its record and events), `count - 1` copies of its record, `count - 1` more audit events. */
async function seed(server: RunningServer, token: string, customerId: string, count: number): Promise<void> {
  const response = await post(
    server,
    '/api/v1/validate',
    {
      mode: 'validate',
      question: 'How many days of paid leave do full-time employees get?',
      chatbot_response: 'Full-time employees get 25 days of paid leave per year, and unused days expire.',
      inline_text:
        'Leave policy. Full-time employees are entitled to 25 days of paid leave per calendar year. Up to 5 unused days carry over.',
    },
    token,
  );
  if (response.status !== 200) throw new Error(`validate answered ${response.status}: ${await response.text()}`);
  const { validation_id: validationId } = (await response.json()) as { validation_id: string };
  await cloneHistory(container.cosmos.container('history'), customerId, validationId, count - 1);
  // The validation's own event goes through its outbox: wait for it before chaining more.
  while (((await audit.readHead(customerId))?.sequence ?? 0) < 1) await new Promise((resolve) => setTimeout(resolve, 50));
  const entries = entriesOfEveryKind();
  const start = Date.now() - 29 * dayMs;
  const target = tenants.find((t) => t.customerId === customerId)!;
  for (let done = 0; done < count - 1; done += 9900) {
    await seedChain(audit, target, Math.min(9900, count - 1 - done), (index) => ({
      entry: entries[(done + index) % entries.length]!,
      at: new Date(start + done + index),
    }));
  }
}

/**
 * Exports over HTTP into a file, sampling this process's memory (RSS and the heap every 10 ms,
 * the live heap after a full collection every 250 ms), then checks every entry against the manifest.
 */
async function measureExport(server: RunningServer, token: string, customerId: string, count: number): Promise<Measurement> {
  const memory = sampleMemory();
  const file = join(dir, `${customerId}.zip`);
  const started = performance.now();
  try {
    const response = await post(server, '/api/v1/account/export', {}, token);
    if (response.status !== 200) throw new Error(`export answered ${response.status}: ${await response.text()}`);
    await pipeline(Readable.fromWeb(response.body! as import('node:stream/web').ReadableStream), createWriteStream(file));
  } catch (error) {
    memory.stop();
    throw error;
  }
  const growth = memory.stop();
  const totalMs = performance.now() - started;
  const { records, bytes } = await checkZip(file, count);
  return { customerId, records, bytes, totalMs, ...growth };
}

/** Streams every entry through SHA-256 and a line count and compares with the manifest; returns the records and ZIP size. */
async function checkZip(file: string, count: number): Promise<{ records: number; bytes: number }> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true }, (error, opened) => (error ? reject(error) : resolve(opened))),
  );
  const seen = new Map<string, FileSummary>();
  let manifest: { files: FileSummary[] } | null = null;
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', resolve);
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, async (error, stream) => {
        if (error) return reject(error);
        const isManifest = entry.fileName === 'manifest.json';
        const read = await readEntry(stream as AsyncIterable<Buffer>, isManifest);
        if (isManifest) manifest = JSON.parse(read.content.toString('utf8'));
        else seen.set(entry.fileName, { name: entry.fileName, records: read.lines, sha256: read.sha256, bytes: read.bytes });
        zip.readEntry();
      });
    });
    zip.readEntry();
  });
  const described = (manifest as { files: FileSummary[] } | null)?.files;
  if (!described) throw new Error('the export has no manifest');
  for (const expected of described) {
    const actual = seen.get(expected.name);
    if (!actual || actual.records !== expected.records || actual.sha256 !== expected.sha256 || actual.bytes !== expected.bytes) {
      throw new Error(`${expected.name} does not match the manifest`);
    }
  }
  const history = seen.get('history.jsonl')?.records;
  const events = seen.get('audit_events.jsonl')?.records;
  if (history !== count || events !== count)
    throw new Error(`exported ${history} history records and ${events} audit events, expected ${count} of each`);
  return { records: [...seen.values()].reduce((sum, f) => sum + f.records, 0), bytes: statSync(file).size };
}

/** An entry's SHA-256, line count and size, and its content when `keep`. */
async function readEntry(
  stream: AsyncIterable<Buffer>,
  keep: boolean,
): Promise<{ sha256: string; lines: number; bytes: number; content: Buffer }> {
  const hash = createHash('sha256');
  let lines = 0;
  let bytes = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) {
    hash.update(chunk);
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) lines += 1;
    if (keep) chunks.push(chunk);
  }
  return { sha256: hash.digest('hex'), lines, bytes, content: Buffer.concat(chunks) };
}

function print(m: Measurement): void {
  const seconds = m.totalMs / 1000;
  console.log(
    `${m.customerId.padEnd(9)} ${String(m.records).padStart(7)} records  ${(m.bytes / 2 ** 20).toFixed(1).padStart(6)} MiB zip  ` +
      `${seconds.toFixed(1).padStart(6)} s  ${Math.round(m.records / seconds)
        .toString()
        .padStart(6)} records/s  ` +
      `peak growth: rss ${m.rssGrowthMb.toFixed(1).padStart(5)} MiB, heap ${m.heapGrowthMb.toFixed(1).padStart(5)} MiB, live heap ${m.liveGrowthMb.toFixed(1).padStart(5)} MiB`,
  );
}

/** Flat when the larger export holds on to no more than the smaller one, give or take 8 MiB of sampling noise. */
function verdict([small, big]: Measurement[]): string {
  const flat = big!.liveGrowthMb <= small!.liveGrowthMb + 8;
  if (!flat) process.exitCode = 1;
  return (
    `${big!.records / small!.records}x the records, live heap growth ${small!.liveGrowthMb} -> ${big!.liveGrowthMb} MiB, ` +
    `rss growth ${small!.rssGrowthMb} -> ${big!.rssGrowthMb} MiB: ` +
    (flat ? 'flat, memory does not grow with the size of the tenant' : 'GROWS with the size of the tenant')
  );
}
