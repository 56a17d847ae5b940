// npm run eval: runs the engine directly over the two dev data sets in ../shared/data and prints
// accuracy, precision, recall and F1 of "has at least one issue", the figures per error type, the
// share of hallucinated cases whose flagged claim overlaps the labelled span, and ms per case.
// Options: --split=odd|even (only odd or even lines, for hold-out checks), --verbose (list misses),
// --data=DIR (default ../shared/data beside the repository).
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine, type EngineValidation } from '../src/engine/index.js';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string | undefined]));
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dataDir = args.get('data') ?? join(repo, '../shared/data');
const split = args.get('split');
const verbose = args.has('verbose');
const engine = createEngine();

interface Case {
  id: string;
  question: string;
  answer: string;
  source: string;
  hallucinated: boolean;
  type: string;
  span?: string;
}

function lines(file: string): unknown[] {
  return readFileSync(join(dataDir, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l))
    .filter((_, i) => !split || (split === 'odd' ? i % 2 === 0 : i % 2 === 1));
}

function haluCases(): Case[] {
  return (
    lines('halueval-qa-dev.jsonl') as { knowledge: string; question: string; right_answer: string; hallucinated_answer: string }[]
  ).flatMap((l, i) => [
    { id: `h${i}r`, question: l.question, answer: l.right_answer, source: l.knowledge, hallucinated: false, type: 'right' },
    { id: `h${i}h`, question: l.question, answer: l.hallucinated_answer, source: l.knowledge, hallucinated: true, type: 'hallucinated' },
  ]);
}

function ragCases(): Case[] {
  return (
    lines('rag-cases-dev.jsonl') as {
      id: string;
      question: string;
      answer: string;
      source: string;
      label: string;
      error: { type: string; span: string } | null;
    }[]
  ).map((l) => ({
    id: l.id,
    question: l.question,
    answer: l.answer,
    source: l.source,
    hallucinated: l.label === 'hallucinated',
    type: l.error?.type ?? 'grounded',
    ...(l.error ? { span: l.error.span } : {}),
  }));
}

async function run(name: string, cases: Case[]): Promise<void> {
  let tp = 0,
    fp = 0,
    tn = 0,
    fn = 0,
    located = 0,
    spans = 0;
  const perType = new Map<string, { n: number; right: number }>();
  const started = performance.now();
  for (const c of cases) {
    const result: EngineValidation = await engine.validate({
      question: c.question,
      answer: c.answer,
      sources: [{ source_id: 'inline_text', text: c.source }],
    });
    const flagged = result.issue_count > 0;
    if (flagged && c.hallucinated) tp++;
    else if (flagged) fp++;
    else if (c.hallucinated) fn++;
    else tn++;
    const stats = perType.get(c.type) ?? { n: 0, right: 0 };
    stats.n++;
    if (flagged === c.hallucinated) stats.right++;
    perType.set(c.type, stats);
    if (c.span !== undefined) {
      spans++;
      const from = c.answer.indexOf(c.span);
      const to = from + c.span.length;
      if (result.claims.some((cl) => cl.status !== 'supported' && cl.start < to && cl.end > from)) located++;
    }
    if (verbose && flagged !== c.hallucinated) {
      console.log(`  ${flagged ? 'FALSE FLAG' : 'MISSED'} ${c.id} [${c.type}] Q: ${c.question.trim()}\n    A: ${c.answer}`);
      for (const cl of result.claims.filter((x) => x.status !== 'supported' || c.hallucinated))
        console.log(`    - ${cl.status} ${cl.score} "${cl.text}"`);
      for (const issue of result.issues) console.log(`    ! ${issue}`);
    }
  }
  const ms = (performance.now() - started) / cases.length;
  const precision = tp / Math.max(1, tp + fp);
  const recall = tp / Math.max(1, tp + fn);
  const f1 = (2 * precision * recall) / Math.max(1e-9, precision + recall);
  console.log(`\n${name}${split ? ` (${split} lines)` : ''}: ${cases.length} cases`);
  console.log(
    `  accuracy ${pct((tp + tn) / cases.length)}  precision ${precision.toFixed(3)}  recall ${recall.toFixed(3)}  F1 ${f1.toFixed(3)}  (tp ${tp} fp ${fp} tn ${tn} fn ${fn})`,
  );
  for (const [type, s] of [...perType].sort())
    console.log(`  ${type.padEnd(22)} ${String(s.right).padStart(3)}/${String(s.n).padEnd(3)} correct`);
  if (spans > 0) console.log(`  wrong span located in ${located}/${spans} hallucinated cases (${pct(located / spans)})`);
  console.log(`  ${ms.toFixed(2)} ms per case`);
}

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

await run('halueval-qa-dev', haluCases());
await run('rag-cases-dev', ragCases());
