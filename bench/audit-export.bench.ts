import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditStore } from '../server/src/cosmos/audit-store.js';
import type { RunningServer } from '../server/src/server.js';
import { generateApiKey } from '../server/src/services/auth/api-keys.js';
import { entriesOfEveryKind, seedChain } from '../server/test/support/audit.js';
import { numberArgument, startBenchServer } from './support/bench-server.js';
import { sampleMemory } from './support/memory-sampler.js';

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

await runBenchmark();

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

  const adminKey = generateApiKey();
  const tenant = (customerId: string) => ({
    customer_id: customerId,
    name: customerId,
    features: { document_templates: false, audit_trail: true },
    rate_limit: { requests: 1_000_000, window_seconds: 60 },
    api_keys: [{ id: adminKey.id, role: 'admin', sha256: adminKey.sha256 }],
    auth: { local: { users: [] } },
  });
  const { container, server, tenants, close } = await startBenchServer(mkdtempSync(join(tmpdir(), 'gc-bench-')), [
    tenant('baseline'),
    tenant('large'),
  ]);
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
    await close();
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
