// A model folder small enough to reason about by hand: a WordPiece tokenizer over a dozen words and an ONNX graph
// whose logits are the sum of one weight row per unmasked token,
//   logits = ReduceSum(Gather(weights, input_ids) [+ Gather(typeWeights, token_type_ids)]) × attention_mask, over the sequence.
// So a pair's expected scores are a softmax (or sigmoid) of sums that a test can write down.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

/** What a token weighs towards each meaning, before the columns are laid out in the folder's label order. */
interface Weight {
  entailment?: number;
  neutral?: number;
  contradiction?: number;
}

const functionWord: Weight = { neutral: 0.25 };
const contentWord: Weight = { entailment: 0.5 };

/** In id order: [PAD] is 0, [CLS] 2, [SEP] 3. */
export const tinyVocabulary: [string, Weight][] = [
  // Large, so that a padded position that was not masked out would change every score.
  ['[PAD]', { entailment: 7, neutral: -3, contradiction: 5 }],
  ['[UNK]', { neutral: 0.5 }],
  ['[CLS]', {}],
  ['[SEP]', {}],
  ['[MASK]', {}],
  ['the', functionWord],
  ['on', functionWord],
  ['is', functionWord],
  ['a', functionWord],
  ['.', functionWord],
  ['cat', contentWord],
  ['dog', contentWord],
  ['sat', contentWord],
  ['mat', contentWord],
  ['red', contentWord],
  ['ran', contentWord],
  ['not', { contradiction: 3 }],
  ['##s', { entailment: 0.1 }],
];

/** Added to every token of the second segment when the model takes token_type_ids. */
export const secondSegmentWeight: Weight = { neutral: 1 };

export interface TinyModelSpec {
  /** id2label in output order. Default entailment, neutral, contradiction. */
  labels?: string[];
  /** One output per pair instead of labels: a logit, or a probability (the graph ends in a Sigmoid). */
  single?: 'logit' | 'probability';
  /** The graph also takes token_type_ids. */
  tokenTypes?: boolean;
  modelFile?: 'model.onnx' | 'onnx/model.onnx';
  /** tokenizer_config.json model_max_length. Default 512. */
  modelMaxLength?: number;
  /** config.json _name_or_path; absent when null. */
  name?: string | null;
}

/** One column per output: the weight of that label, or entailment minus contradiction for a single output. */
function column(weight: Weight, spec: TinyModelSpec): number[] {
  const e = weight.entailment ?? 0;
  const n = weight.neutral ?? 0;
  const c = weight.contradiction ?? 0;
  if (spec.single) return [e - c];
  const byLabel: Record<string, number> = { entailment: e, neutral: n, contradiction: c, not_entailment: n + c };
  return labelsOf(spec).map((label) => byLabel[label.toLowerCase()] ?? 0);
}

const labelsOf = (spec: TinyModelSpec) => spec.labels ?? ['entailment', 'neutral', 'contradiction'];

/** The logits the graph computes for one encoded pair (tokens and their segments), in output order. */
export function tinyLogits(tokens: string[], typeIds: number[], spec: TinyModelSpec = {}): number[] {
  const weights = new Map(tinyVocabulary);
  const sum = column({}, spec);
  tokens.forEach((token, i) => {
    const rows = [weights.get(token) ?? weights.get('[UNK]')!, ...(spec.tokenTypes && typeIds[i] === 1 ? [secondSegmentWeight] : [])];
    for (const row of rows) column(row, spec).forEach((value, j) => (sum[j]! += value));
  });
  return sum;
}

export async function writeTinyModel(dir: string, spec: TinyModelSpec = {}): Promise<void> {
  const modelPath = join(dir, spec.modelFile ?? 'model.onnx');
  await mkdir(dirname(modelPath), { recursive: true });
  await writeFile(modelPath, onnx.ModelProto.encode(tinyGraph(spec)).finish());
  await writeFile(join(dir, 'tokenizer.json'), JSON.stringify(tinyTokenizer()));
  await writeFile(
    join(dir, 'tokenizer_config.json'),
    JSON.stringify({
      tokenizer_class: 'BertTokenizer',
      do_lower_case: true,
      model_max_length: spec.modelMaxLength ?? 512,
      pad_token: '[PAD]',
    }),
  );
  const labels = spec.single ? ['LABEL_0'] : labelsOf(spec);
  await writeFile(
    join(dir, 'config.json'),
    JSON.stringify({
      ...(spec.name === null ? {} : { _name_or_path: spec.name ?? 'groundcheck/tiny-nli' }),
      architectures: ['TinyForSequenceClassification'],
      id2label: Object.fromEntries(labels.map((label, i) => [String(i), label])),
      label2id: Object.fromEntries(labels.map((label, i) => [label, i])),
      pad_token_id: 0,
      ...(spec.single === 'probability' ? { single_output: 'probability' } : {}),
    }),
  );
}

const { FLOAT, INT64 } = onnx.TensorProto.DataType;
const { INT } = onnx.AttributeProto.AttributeType;

const tensorInput = (name: string, elemType: number, dims: string[]): onnxProto.onnx.IValueInfoProto => ({
  name,
  type: { tensorType: { elemType, shape: { dim: dims.map((dimParam) => ({ dimParam })) } } },
});

function tinyGraph(spec: TinyModelSpec): onnxProto.onnx.IModelProto {
  const width = column({}, spec).length;
  const weights = tinyVocabulary.flatMap(([, weight]) => column(weight, spec));
  const typeWeights = [...column({}, spec), ...column(secondSegmentWeight, spec)];
  const node = (opType: string, input: string[], output: string, attribute: onnxProto.onnx.IAttributeProto[] = []) => ({
    opType,
    input,
    output: [output],
    name: output,
    attribute,
  });
  const nodes = [
    node('Gather', ['weights', 'input_ids'], spec.tokenTypes ? 'token_rows' : 'rows'),
    ...(spec.tokenTypes
      ? [node('Gather', ['type_weights', 'token_type_ids'], 'type_rows'), node('Add', ['token_rows', 'type_rows'], 'rows')]
      : []),
    node('Cast', ['attention_mask'], 'mask', [{ name: 'to', type: INT, i: FLOAT }]),
    node('Unsqueeze', ['mask', 'last_axis'], 'mask3'),
    node('Mul', ['rows', 'mask3'], 'masked'),
    node('ReduceSum', ['masked', 'sequence_axis'], spec.single === 'probability' ? 'raw' : 'logits', [
      { name: 'keepdims', type: INT, i: 0 },
    ]),
    ...(spec.single === 'probability' ? [node('Sigmoid', ['raw'], 'logits')] : []),
  ];
  return {
    irVersion: 8,
    opsetImport: [{ domain: '', version: 13 }],
    producerName: 'groundcheck-tests',
    graph: {
      name: 'tiny-entailment',
      node: nodes,
      initializer: [
        { name: 'weights', dataType: FLOAT, dims: [tinyVocabulary.length, width], floatData: weights },
        { name: 'type_weights', dataType: FLOAT, dims: [2, width], floatData: typeWeights },
        { name: 'last_axis', dataType: INT64, dims: [1], int64Data: [2] },
        { name: 'sequence_axis', dataType: INT64, dims: [1], int64Data: [1] },
      ].filter((tensor) => spec.tokenTypes || tensor.name !== 'type_weights'),
      input: [
        tensorInput('input_ids', INT64, ['batch', 'sequence']),
        tensorInput('attention_mask', INT64, ['batch', 'sequence']),
        ...(spec.tokenTypes ? [tensorInput('token_type_ids', INT64, ['batch', 'sequence'])] : []),
      ],
      output: [{ name: 'logits', type: { tensorType: { elemType: FLOAT, shape: { dim: [{ dimParam: 'batch' }, { dimValue: width }] } } } }],
    },
  };
}

/** A BERT-style tokenizer.json as `tokenizers` saves it, over the tiny vocabulary. */
function tinyTokenizer(): Record<string, unknown> {
  const special = (content: string, id: number) => ({
    id,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  const ids = Object.fromEntries(tinyVocabulary.map(([token], id) => [token, id]));
  const specialToken = (id: string, type_id: number) => ({ SpecialToken: { id, type_id } });
  const sequence = (id: string, type_id: number) => ({ Sequence: { id, type_id } });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'].map((token) => special(token, ids[token]!)),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [specialToken('[CLS]', 0), sequence('A', 0), specialToken('[SEP]', 0)],
      pair: [specialToken('[CLS]', 0), sequence('A', 0), specialToken('[SEP]', 0), sequence('B', 1), specialToken('[SEP]', 1)],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [ids['[CLS]']], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [ids['[SEP]']], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab: ids },
  };
}
