// Reads a row of the model's output as entailment probabilities, whatever head the model has. The head is known
// from config.json's id2label, so a folder whose labels mean something else is refused instead of misread.
import { EntailmentModelUnavailable, isJsonObject, type JsonObject } from './model-folder.js';

export interface EntailmentScores {
  entailment: number;
  contradiction: number;
  neutral: number;
}

export interface LabelMap {
  /** How many values the model outputs per pair. */
  readonly width: number;
  scores(row: ArrayLike<number>): EntailmentScores;
}

const nliLabels = ['entailment', 'neutral', 'contradiction'] as const;
const binaryLabels = ['entailment', 'not_entailment'] as const;

export function labelMapFrom(config: JsonObject): LabelMap {
  const labels = id2label(config);
  if (labels.length === 1) return singleOutput(config);
  const index = (label: string) => labels.indexOf(label);
  if (sameSet(labels, nliLabels)) {
    const [entailment, neutral, contradiction] = nliLabels.map(index) as [number, number, number];
    return {
      width: 3,
      scores: (row) => {
        const p = softmax(row);
        return { entailment: p[entailment]!, neutral: p[neutral]!, contradiction: p[contradiction]! };
      },
    };
  }
  if (sameSet(labels, binaryLabels)) {
    const entailment = index('entailment');
    return {
      width: 2,
      scores: (row) => consistency(softmax(row)[entailment]!),
    };
  }
  throw new EntailmentModelUnavailable(
    `config.json id2label (${labels.join(', ')}) is not a known head: expected entailment, neutral and contradiction; ` +
      'entailment and not_entailment; or a single output',
  );
}

/** The labels in output order, lower-cased. */
function id2label(config: JsonObject): string[] {
  const map = config.id2label;
  if (!isJsonObject(map)) throw new EntailmentModelUnavailable('config.json has no id2label');
  const entries = Object.entries(map);
  const labels = entries.map((_, i) => map[String(i)]);
  if (entries.length === 0 || labels.some((label) => typeof label !== 'string')) {
    throw new EntailmentModelUnavailable('config.json id2label must map 0, 1, … to label names');
  }
  return labels.map((label) => (label as string).trim().toLowerCase());
}

const sameSet = (labels: string[], expected: readonly string[]) =>
  labels.length === expected.length && expected.every((label) => labels.includes(label));

/**
 * A consistency head (HHEM-1.0 style): one value per pair, a logit unless config.json's `single_output` says
 * "probability" (an export that ends in its own sigmoid).
 */
function singleOutput(config: JsonObject): LabelMap {
  const kind = config.single_output ?? 'logit';
  if (kind !== 'logit' && kind !== 'probability') {
    throw new EntailmentModelUnavailable('config.json single_output must be "logit" or "probability"');
  }
  return {
    width: 1,
    scores: (row) => {
      const value = finite(row)[0]!;
      return consistency(kind === 'logit' ? 1 / (1 + Math.exp(-value)) : Math.min(1, Math.max(0, value)));
    },
  };
}

/** A head that only tells supported from unsupported has no contradiction to report. */
const consistency = (p: number): EntailmentScores => ({ entailment: p, contradiction: 0, neutral: 1 - p });

function softmax(row: ArrayLike<number>): number[] {
  const values = finite(row);
  const max = Math.max(...values);
  const exps = values.map((value) => Math.exp(value - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((value) => value / sum);
}

function finite(row: ArrayLike<number>): number[] {
  const values = Array.from(row);
  if (!values.every(Number.isFinite)) throw new Error('the entailment model output a value that is not a finite number');
  return values;
}
