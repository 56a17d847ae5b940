// Temporary model folders for the entailment tests, removed when the test file ends.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { Tokenizer } from '@huggingface/tokenizers';
import type { EntailmentScores } from '../../../src/verifiers/entailment/entailment-model.js';
import { type TinyModelSpec, writeTinyModel } from './tiny-model.js';

const created: string[] = [];
after(() => Promise.all(created.map((dir) => rm(dir, { recursive: true, force: true }))));

export async function emptyDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'groundcheck-entailment-'));
  created.push(dir);
  return dir;
}

export async function tinyModelDir(spec: TinyModelSpec = {}): Promise<string> {
  const dir = await emptyDir();
  await writeTinyModel(dir, spec);
  return dir;
}

export async function editJson(file: string, edit: (value: Record<string, unknown>) => unknown): Promise<void> {
  await writeFile(file, JSON.stringify(edit(JSON.parse(await readFile(file, 'utf8')))));
}

export async function tokenizerOf(dir: string): Promise<Tokenizer> {
  const json = async (file: string) => JSON.parse(await readFile(join(dir, file), 'utf8'));
  return new Tokenizer(await json('tokenizer.json'), await json('tokenizer_config.json'));
}

export function softmax(logits: number[]): number[] {
  const exps = logits.map(Math.exp);
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((value) => value / sum);
}

export const sigmoid = (logit: number) => 1 / (1 + Math.exp(-logit));

/** Scores from logits in the order entailment, neutral, contradiction. */
export function nliScores(logits: [number, number, number]): EntailmentScores {
  const [entailment, neutral, contradiction] = softmax(logits) as [number, number, number];
  return { entailment, neutral, contradiction };
}

export function assertScores(actual: EntailmentScores | undefined, expected: EntailmentScores, message?: string): void {
  assert.ok(actual, message);
  for (const key of ['entailment', 'neutral', 'contradiction'] as const) {
    assert.ok(
      Math.abs(actual[key] - expected[key]) < 1e-4,
      `${message ?? ''} ${key}: got ${actual[key]}, expected ${expected[key]} (${JSON.stringify(actual)})`,
    );
  }
}
