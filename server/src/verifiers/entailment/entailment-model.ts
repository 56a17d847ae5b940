// A local entailment model (cross-encoder NLI or a single-output consistency head) run with onnxruntime on the
// CPU. Everything comes from the folder the operator names; nothing is downloaded.
import { Tokenizer } from '@huggingface/tokenizers';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { type EntailmentScores, type LabelMap, labelMapFrom } from './label-map.js';
import { EntailmentModelUnavailable, isJsonObject, type JsonObject, readModelFolder } from './model-folder.js';

export type { EntailmentScores } from './label-map.js';
export { EntailmentModelUnavailable } from './model-folder.js';

export interface EntailmentModel {
  /** From config.json `_name_or_path`, or the folder's base name. */
  readonly name: string;
  score(pairs: { premise: string; hypothesis: string }[]): Promise<EntailmentScores[]>;
  close(): Promise<void>;
}

export interface EntailmentOptions {
  /** Tokens per pair, special tokens included. Default 512, capped by tokenizer_config.json `model_max_length`. */
  maxLength?: number;
  /** Pairs per inference run. Default 8. */
  batchSize?: number;
  /** onnxruntime's threads per run. Default 1: the model runs inside a worker pool, which already uses the cores. */
  intraOpThreads?: number;
}

/** Bounds on one call, so outside input cannot make it run without end. */
export const maxPairsPerCall = 256;
export const maxTextChars = 20_000;

const knownInputs = ['input_ids', 'attention_mask', 'token_type_ids'] as const;
type InputName = (typeof knownInputs)[number];

export interface EncodedPair {
  ids: number[];
  typeIds: number[];
}

export async function loadEntailmentModel(dir: string, options: EntailmentOptions = {}): Promise<EntailmentModel> {
  const batchSize = whole('batchSize', options.batchSize ?? 8, 1, maxPairsPerCall);
  const intraOpNumThreads = whole('intraOpThreads', options.intraOpThreads ?? 1, 1, 256);
  const folder = await readModelFolder(dir);
  const labels = labelMapFrom(folder.config);
  const tokenizer = tokenizerFrom(folder.tokenizer, folder.tokenizerConfig);
  const maxLength = Math.min(
    whole('maxLength', options.maxLength ?? 512, 1, Number.MAX_SAFE_INTEGER),
    modelMaxLength(folder.tokenizerConfig),
  );
  const specials = specialTokenCount(tokenizer);
  if (maxLength < specials + 2) throw new RangeError(`maxLength ${maxLength} leaves no room for text beside ${specials} special tokens`);
  const padId = padIdOf(tokenizer, folder.tokenizerConfig, folder.config);

  const session = await InferenceSession.create(folder.modelPath, {
    executionProviders: ['cpu'],
    intraOpNumThreads,
    // Warnings from graph optimisation would reach the worker's stderr on every load; errors still throw.
    logSeverityLevel: 3,
  }).catch((error: unknown) => {
    throw new EntailmentModelUnavailable(`${folder.modelFile} could not be loaded as an ONNX model`, { cause: error });
  });
  const runner = { session, modelFile: folder.modelFile, labels, padId };
  try {
    checkInputs(session, folder.modelFile);
    // One run at load time, so a model whose output does not match config.json fails here, not on first use.
    await runBatch(runner, [encodePair(tokenizer, 'a', 'a', maxLength)]);
  } catch (error) {
    await session.release();
    throw error;
  }

  // onnxruntime does not promise that releasing a session under a run is safe: close() stops calls between batches and waits for them.
  let closing: Promise<void> | undefined;
  const running = new Set<Promise<EntailmentScores[]>>();
  const refuseIfClosed = () => {
    if (closing) throw new Error('the entailment model is closed');
  };
  const scoreAll = async (encoded: EncodedPair[]) => {
    const scores: EntailmentScores[] = [];
    for (let start = 0; start < encoded.length; start += batchSize) {
      refuseIfClosed();
      scores.push(...(await runBatch(runner, encoded.slice(start, start + batchSize))));
    }
    return scores;
  };
  return {
    name: folder.name,
    async score(pairs) {
      refuseIfClosed();
      if (pairs.length > maxPairsPerCall) throw new RangeError(`at most ${maxPairsPerCall} pairs per call, got ${pairs.length}`);
      const work = scoreAll(pairs.map((pair) => encodePair(tokenizer, pair.premise, pair.hypothesis, maxLength)));
      running.add(work);
      try {
        return await work;
      } finally {
        running.delete(work);
      }
    },
    close() {
      closing ??= Promise.allSettled(running).then(() => session.release());
      return closing;
    },
  };
}

/**
 * Encodes (premise, hypothesis) with the tokenizer's own pair template ([CLS] A [SEP] B [SEP], <s> A </s></s> B </s>,
 * …). Each text is first cut at maxTextChars, which bounds the tokenizer's work; then, over maxLength, the premise is
 * cut first: the claim being checked is kept whole when it fits.
 */
export function encodePair(tokenizer: Tokenizer, premise: string, hypothesis: string, maxLength: number): EncodedPair {
  let a = tokenizer.tokenize(premise.slice(0, maxTextChars));
  let b = tokenizer.tokenize(hypothesis.slice(0, maxTextChars));
  const budget = maxLength - specialTokenCount(tokenizer);
  if (a.length + b.length > budget) {
    b = b.slice(0, budget);
    a = a.slice(0, budget - b.length);
  }
  const { tokens, typeIds } = withSpecialTokens(tokenizer, a, b);
  return { ids: tokens.map((token) => idOf(tokenizer, token)), typeIds };
}

function withSpecialTokens(tokenizer: Tokenizer, a: string[], b: string[]): { tokens: string[]; typeIds: number[] } {
  const out = tokenizer.post_processor?.(a, b, true) ?? { tokens: a, tokens_pair: b };
  const tokens = [...out.tokens, ...(out.tokens_pair ?? [])];
  // Post-processors without a template (or none at all) leave the segments apart: the second is segment 1.
  const typeIds = out.token_type_ids ?? [...out.tokens.map(() => 0), ...(out.tokens_pair ?? []).map(() => 1)];
  return { tokens, typeIds };
}

const specialTokenCount = (tokenizer: Tokenizer) => withSpecialTokens(tokenizer, [], []).tokens.length;

function idOf(tokenizer: Tokenizer, token: string): number {
  const id = tokenizer.token_to_id(token) ?? tokenizer.model?.unk_token_id;
  if (id === undefined) throw new Error(`the tokenizer produced "${token}", which is not in its vocabulary and it has no unknown token`);
  return id;
}

function tokenizerFrom(json: JsonObject, config: JsonObject): Tokenizer {
  try {
    return new Tokenizer(json, config);
  } catch (error) {
    throw new EntailmentModelUnavailable(`tokenizer.json could not be read as a tokenizer (${(error as Error).message})`, { cause: error });
  }
}

function modelMaxLength(config: JsonObject): number {
  const value = config.model_max_length;
  // Tokenizers without a limit record a huge sentinel (1e30) there.
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : Number.MAX_SAFE_INTEGER;
}

/** The id padding uses: RoBERTa-style models derive positions from it, so it must be the model's own. */
function padIdOf(tokenizer: Tokenizer, tokenizerConfig: JsonObject, config: JsonObject): number {
  const token = tokenizerConfig.pad_token;
  const content = typeof token === 'string' ? token : isJsonObject(token) && typeof token.content === 'string' ? token.content : undefined;
  const id = content === undefined ? undefined : tokenizer.token_to_id(content);
  if (id !== undefined) return id;
  return typeof config.pad_token_id === 'number' ? config.pad_token_id : 0;
}

function checkInputs(session: InferenceSession, modelFile: string): void {
  for (const name of ['input_ids', 'attention_mask']) {
    if (!session.inputNames.includes(name)) throw new EntailmentModelUnavailable(`${modelFile} has no ${name} input`);
  }
  for (const input of session.inputMetadata) {
    if (!(knownInputs as readonly string[]).includes(input.name)) {
      throw new EntailmentModelUnavailable(`${modelFile} takes an input this loader cannot feed: ${input.name}`);
    }
    if (input.isTensor && input.type !== 'int64') {
      throw new EntailmentModelUnavailable(`${modelFile} input ${input.name} is ${input.type}; int64 is expected`);
    }
  }
}

interface Runner {
  session: InferenceSession;
  modelFile: string;
  labels: LabelMap;
  padId: number;
}

async function runBatch({ session, modelFile, labels, padId }: Runner, rows: EncodedPair[]): Promise<EntailmentScores[]> {
  const results = await session.run(feeds(session.inputNames as InputName[], rows, padId));
  const output = results[session.outputNames.includes('logits') ? 'logits' : session.outputNames[0]!]!;
  if (!(output instanceof Tensor) || (output.type !== 'float32' && output.type !== 'float64')) {
    throw new EntailmentModelUnavailable(`${modelFile} must output a float tensor`);
  }
  const [batch, width] = output.dims;
  if (output.dims.length !== 2 || batch !== rows.length || width !== labels.width) {
    throw new EntailmentModelUnavailable(
      `${modelFile} outputs shape [${output.dims.join(', ')}] for ${rows.length} pairs; config.json id2label expects [${rows.length}, ${labels.width}]`,
    );
  }
  const data = output.data as Float32Array | Float64Array;
  return rows.map((_, row) => labels.scores(data.subarray(row * labels.width, (row + 1) * labels.width)));
}

/** int64 tensors [batch, longest row]; shorter rows are padded with the pad id and masked out. */
function feeds(names: InputName[], rows: EncodedPair[], padId: number): Record<string, Tensor> {
  const length = Math.max(...rows.map((row) => row.ids.length));
  const ids = new BigInt64Array(rows.length * length).fill(BigInt(padId));
  const mask = new BigInt64Array(rows.length * length);
  const types = new BigInt64Array(rows.length * length);
  rows.forEach((row, r) => {
    row.ids.forEach((id, i) => {
      ids[r * length + i] = BigInt(id);
      mask[r * length + i] = 1n;
      types[r * length + i] = BigInt(row.typeIds[i]!);
    });
  });
  const dims = [rows.length, length];
  const tensors: Record<InputName, BigInt64Array> = { input_ids: ids, attention_mask: mask, token_type_ids: types };
  return Object.fromEntries(names.map((name) => [name, new Tensor('int64', tensors[name], dims)]));
}

function whole(option: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max)
    throw new RangeError(`${option} must be a whole number from ${min} to ${max}`);
  return value;
}
