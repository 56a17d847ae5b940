// The labelled cases the engine is measured on: HaluEval QA lines 1-250 and the realistic sets in
// ../shared/data (every rag-cases-*.jsonl), and the team's own realistic cases in server/eval/cases.
// Each case knows its fold: its domain for realistic cases, odd or even line for HaluEval.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export type SetName = 'halueval' | 'shared-realistic' | 'team-realistic' | 'team-holdout';

export interface Case {
  id: string;
  set: SetName;
  /** The cross-validation fold: a realistic case's domain, or `halueval-odd` / `halueval-even`. */
  fold: string;
  question: string;
  answer: string;
  source: string;
  hallucinated: boolean;
  /** The error type, `grounded` or (HaluEval) `right` / `hallucinated`. */
  type: string;
  /** The exact wrong substring of the answer, where labelled. */
  span?: string;
}

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const sharedDataDir = join(repo, '../shared/data');
export const teamCasesDir = join(repo, 'server/eval/cases');
/** Team cases kept from development: measured once per engine version, never read while writing its readings. */
export const holdoutDir = join(repo, 'server/eval/holdout');

function jsonLines(file: string): unknown[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

interface HaluLine {
  knowledge: string;
  question: string;
  right_answer: string;
  hallucinated_answer: string;
}

interface RealisticLine {
  id: string;
  domain: string;
  question: string;
  answer: string;
  source: string;
  label: string;
  error: { type: string; span: string } | null;
}

function haluCases(dir: string): Case[] {
  return (jsonLines(join(dir, 'halueval-qa-dev.jsonl')) as HaluLine[]).flatMap((l, i) => {
    const fold = i % 2 === 0 ? 'halueval-odd' : 'halueval-even';
    const common = { set: 'halueval' as const, fold, question: l.question, source: l.knowledge };
    return [
      { ...common, id: `h${i + 1}r`, answer: l.right_answer, hallucinated: false, type: 'right' },
      { ...common, id: `h${i + 1}h`, answer: l.hallucinated_answer, hallucinated: true, type: 'hallucinated' },
    ];
  });
}

function realisticCases(file: string, set: SetName): Case[] {
  return (jsonLines(file) as RealisticLine[]).map((l) => ({
    id: l.id,
    set,
    fold: l.domain,
    question: l.question,
    answer: l.answer,
    source: l.source,
    hallucinated: l.label === 'hallucinated',
    type: l.error?.type ?? 'grounded',
    ...(l.error ? { span: l.error.span } : {}),
  }));
}

function jsonlFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir)
    .filter((f) => f.startsWith(prefix) && f.endsWith('.jsonl'))
    .sort()
    .map((f) => join(dir, f));
}

export function loadCases(dataDir = sharedDataDir): Case[] {
  return [
    ...haluCases(dataDir),
    ...jsonlFiles(dataDir, 'rag-cases-').flatMap((f) => realisticCases(f, 'shared-realistic')),
    ...jsonlFiles(teamCasesDir).flatMap((f) => realisticCases(f, 'team-realistic')),
  ];
}

/** The held-out documents' cases (`holdoutDir`), each fold its domain. */
export function loadHoldout(dir = holdoutDir): Case[] {
  return jsonlFiles(dir).flatMap((f) => realisticCases(f, 'team-holdout'));
}
