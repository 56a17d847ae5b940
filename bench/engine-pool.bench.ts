// The engine off the event loop: while large validations run, how long does this thread's event
// loop stall, and how long does a loopback `GET /healthz` take? Compared for the engine run inline
// (on the main thread) and through the worker pool the server uses.
//
// Usage: npm run bench -- engine-pool [--validations=4] [--source-kb=1024]
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createEngine, type EngineRequest } from '../server/src/engine/index.js';
import { EnginePool } from '../server/src/services/validation/engine-pool.js';

const option = (name: string, fallback: number) =>
  Number(process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const validations = option('validations', 4);
const sourceKb = option('source-kb', 1024);

// A large source built from the realistic dev cases' documents, repeated to the size asked.
const cases = readFileSync(fileURLToPath(new URL('../../shared/data/rag-cases-dev.jsonl', import.meta.url)), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as { source: string; question: string; answer: string });
let text = '';
for (let i = 0; text.length < sourceKb * 1024; i += 1) text += `${cases[i % cases.length]!.source}\n\n`;
const request: EngineRequest = { question: cases[0]!.question, answer: cases[0]!.answer, sources: [{ source_id: 'src_1', text }] };

const health = createServer((_req, res) => res.end('{"status":"ok"}'));
await new Promise<void>((resolve) => health.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(health.address() as AddressInfo).port}/healthz`;

async function measure(label: string, runAll: () => Promise<unknown>) {
  // The loop's stalls: how late a 10 ms timer fires, sampled throughout.
  const stalls: number[] = [];
  let last = performance.now();
  const sampler = setInterval(() => {
    const now = performance.now();
    stalls.push(Math.max(0, now - last - 10));
    last = now;
  }, 10);
  const latencies: number[] = [];
  let running = true;
  const probe = (async () => {
    while (running) {
      const started = performance.now();
      await (await fetch(url)).text();
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const started = performance.now();
  await runAll();
  const totalMs = performance.now() - started;
  running = false;
  await probe;
  clearInterval(sampler);
  stalls.push(Math.max(0, performance.now() - last - 10));
  stalls.sort((a, b) => a - b);
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
  return {
    engine: label,
    validations: validations,
    'total ms': totalMs.toFixed(0),
    'loop stall p99 ms': (stalls[Math.floor(0.99 * (stalls.length - 1))] ?? 0).toFixed(1),
    'loop stall max ms': (stalls.at(-1) ?? 0).toFixed(1),
    'healthz probes': latencies.length,
    'healthz p50 ms': at(0.5).toFixed(1),
    'healthz max ms': at(1).toFixed(1),
  };
}

const engine = createEngine();
const pool = new EnginePool();
await pool.run('validate', request); // load the engine in a worker before measuring
const rows = [
  await measure('inline (main thread)', async () => {
    for (let i = 0; i < validations; i += 1) await engine.validate(request);
  }),
  await measure('worker pool', () => Promise.all(Array.from({ length: validations }, () => pool.run('validate', request)))),
];
console.log(
  `${validations} validations of a ${cases[0]!.answer.length}-character answer against ${sourceKb} KB of sources, /healthz probed every 20 ms:`,
);
console.table(rows);
await pool.close();
health.close();
