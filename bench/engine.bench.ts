// Validation engine benchmark: a 10-sentence answer validated against 10 KB, 100 KB, 1 MB and 10 MB
// of sources (built from the dev data's documents, so no network), on one core; then the mean time
// per case over the eval data sets. Time per MB should stay flat: the cost is linear in the sources. Last, the
// shipped entailment model: its load time and the cost per validate at 10 KB with it.
//
// Usage: npm run bench -- engine.bench [--runs=5]  ("engine" alone also runs engine-pool.bench.ts)
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { entailmentPairs } from '../server/src/engine/entailment.js';
import { createEngine, type EngineRequest } from '../server/src/engine/index.js';
import { assess } from '../server/src/engine/validate.js';
import { loadEntailmentModel } from '../server/src/verifiers/entailment/entailment-model.js';
import { shippedModelDir } from '../server/src/verifiers/entailment/shipped-model.js';

const runs = Number(process.argv.find((a) => a.startsWith('--runs='))?.split('=')[1] ?? 5);
const data = fileURLToPath(new URL('../../shared/data/', import.meta.url));
const halu = readFileSync(`${data}halueval-qa-dev.jsonl`, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as { knowledge: string; question: string; right_answer: string; hallucinated_answer: string });
const rag = readFileSync(`${data}rag-cases-dev.jsonl`, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as { source: string; question: string; answer: string });
const engine = createEngine();

const documents = [...rag.map((r) => r.source), ...halu.map((h) => h.knowledge)];
const answer = [
  'The Standard tier of Object Storage is committed to 99.9% monthly uptime.',
  'Credits are applied to future invoices and are not refundable as cash.',
  'A single adult fare costs $2.75 and includes transfers for 90 minutes.',
  'Breakfast costs €18 per adult and €9 per child aged 4–11.',
  'Passwords must be at least 14 characters long.',
  'The Orrin Canal opened in 1847.',
  'Overdraft fees are $30 per item, at most 3 per business day.',
  'The Pulse 3 Pro case supports Qi wireless charging.',
  'Version 4.1.1 fixed a cross-site scripting issue.',
  'Applications close on 31 March 2025.',
].join(' ');

function sourcesOf(bytes: number): { source_id: string; text: string }[] {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const doc = documents[i % documents.length]!;
    parts.push(doc);
    size += doc.length + 2;
  }
  // Ten sources of equal size, as a source group of several files would give.
  const per = Math.ceil(parts.length / 10);
  return Array.from({ length: 10 }, (_, i) => ({ source_id: `src_${i}`, text: parts.slice(i * per, (i + 1) * per).join('\n\n') })).filter(
    (s) => s.text,
  );
}

// Wall time and this process's CPU time of one call, from a collected heap. Wall time is the
// measure; CPU time (all of the process's threads, so V8's parallel GC helpers too) shows how much of
// a slow wall time on a busy machine is other processes' doing.
async function time(fn: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  globalThis.gc?.();
  const cpu = process.cpuUsage();
  const start = performance.now();
  await fn();
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - start, cpu: (used.user + used.system) / 1000 };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

// Warm-up: the first calls compile the engine's code paths and load the language model.
for (let i = 0; i < 3; i++) await engine.validate({ question: 'warm-up', answer, sources: sourcesOf(10_000) });
console.log('validate, 10-sentence answer (median of runs; wall time, then process CPU time):');
for (const bytes of [10_000, 100_000, 1_000_000, 10_000_000]) {
  const sources = sourcesOf(bytes);
  const size = sources.reduce((n, s) => n + s.text.length, 0);
  const measured: { wall: number; cpu: number }[] = [];
  for (let r = 0; r < runs; r++) measured.push(await time(() => engine.validate({ question: 'What are the terms?', answer, sources })));
  const cpu = median(measured.map((r) => r.cpu));
  const wall = median(measured.map((r) => r.wall));
  console.log(
    `  ${(size / 1e6).toFixed(2).padStart(6)} MB of sources: ${wall.toFixed(1).padStart(8)} ms (${(wall / (size / 1e6)).toFixed(1)} ms per MB), CPU ${cpu.toFixed(1)} ms`,
  );
}

const cases = [
  ...halu.flatMap((h) => [
    { question: h.question, answer: h.right_answer, text: h.knowledge },
    { question: h.question, answer: h.hallucinated_answer, text: h.knowledge },
  ]),
  ...rag.map((r) => ({ question: r.question, answer: r.answer, text: r.source })),
];
const total = await time(async () => {
  for (const c of cases)
    await engine.validate({ question: c.question, answer: c.answer, sources: [{ source_id: 'inline_text', text: c.text }] });
});
console.log(
  `eval cases: ${cases.length}, mean ${(total.wall / cases.length).toFixed(2)} ms per case (CPU ${(total.cpu / cases.length).toFixed(2)} ms)`,
);

// With the shipped entailment model, as the engine's worker runs it (score the first pass's pairs, decide again):
// its load time once, then p50 and p95 per validate at 10 KB of sources, on one core (intraOpThreads 1).
const loadStarted = performance.now();
const model = await loadEntailmentModel(shippedModelDir, { intraOpThreads: 1 });
console.log(`entailment model: loaded in ${(performance.now() - loadStarted).toFixed(0)} ms`);
const withModel = async (request: EngineRequest) => {
  const pairs = entailmentPairs(assess(request));
  const scores = pairs.length === 0 ? [] : await model.score(pairs);
  return engine.validate({ ...request, entailment: { scores: pairs.map((pair, i) => ({ pair, scores: scores[i]! })), weight: 1 } });
};
const tenKb = { question: 'What are the terms?', answer, sources: sourcesOf(10_000) };
for (let i = 0; i < 3; i++) await withModel(tenKb);
const walls: number[] = [];
for (let r = 0; r < Math.max(20, runs); r++) walls.push((await time(() => withModel(tenKb))).wall);
walls.sort((a, b) => a - b);
console.log(
  `  with the model, 10 KB: p50 ${walls[Math.floor(walls.length / 2)]!.toFixed(1)} ms, p95 ${walls[Math.ceil(walls.length * 0.95) - 1]!.toFixed(1)} ms per validate (target p95 ≤ 50 ms)`,
);
await model.close();
