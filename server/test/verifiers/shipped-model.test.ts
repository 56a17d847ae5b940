// The entailment model the project ships is the one its committed recipe describes, is read by the server's own
// loader and tokenizer exactly as training read it, and stays within its size budget.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Tokenizer } from '@huggingface/tokenizers';
import { type EntailmentModel, encodePair, loadEntailmentModel } from '../../src/verifiers/entailment/entailment-model.js';
import { shippedModelDir } from '../../src/verifiers/entailment/shipped-model.js';

const training = new URL('../../../training/entailment/', import.meta.url).pathname;
const json = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

/** As train.py's recipe_hash: each input's relative path, NUL, bytes, NUL, in path order. */
function recipeHash(): string {
  const inFolder = (dir: string, ends: string) =>
    readdirSync(join(training, dir))
      .filter((f) => f.endsWith(ends))
      .map((f) => (dir ? `${dir}/${f}` : f));
  const names = [
    ...inFolder('', '.py'),
    ...inFolder('', '.ts'),
    'recipe.json',
    ...inFolder('data', '.jsonl'),
    ...inFolder('data/written', '.json'),
  ].sort();
  const hash = createHash('sha256');
  for (const name of names) hash.update(Buffer.concat([Buffer.from(`${name}\0`), readFileSync(join(training, name)), Buffer.from('\0')]));
  return hash.digest('hex');
}

describe('the shipped entailment model', () => {
  let model: EntailmentModel;
  before(async () => {
    model = await loadEntailmentModel(shippedModelDir);
  });
  after(() => model.close());

  test('was trained from the committed recipe, data and scripts (npm run train rebuilds it)', () => {
    assert.equal(json(join(shippedModelDir, 'config.json')).recipe_sha256, recipeHash());
  });

  test("the server's tokenizer gives the ids training gave, accents, contractions and figures included", () => {
    const tokenizer = new Tokenizer(json(join(shippedModelDir, 'tokenizer.json')), json(join(shippedModelDir, 'tokenizer_config.json')));
    const samples = json(join(training, 'tokenizer-parity.json')) as { premise: string; hypothesis: string; ids: number[] }[];
    assert.ok(samples.length >= 3);
    for (const { premise, hypothesis, ids } of samples) assert.deepEqual(encodePair(tokenizer, premise, hypothesis, 256).ids, ids);
  });

  test('fits its budget: the model file is at most 25 MB', () => {
    assert.ok(statSync(join(shippedModelDir, 'model.onnx')).size <= 25 * 1024 * 1024);
  });

  test('reads a stated claim as entailed, a changed figure as contradicted and an absent topic as neither', async () => {
    const premise = 'The reading room opens at 9 am on weekdays.';
    const [stated, changed, absent] = await model.score([
      { premise, hypothesis: 'On weekdays the reading room opens at 9 am.' },
      { premise, hypothesis: 'The reading room opens at 11 am on weekdays.' },
      { premise, hypothesis: 'The swimming pool closes at nine in the evening.' },
    ]);
    assert.ok(stated!.entailment > 0.5, JSON.stringify(stated));
    assert.ok(changed!.contradiction > changed!.entailment, JSON.stringify(changed));
    assert.ok(absent!.neutral > 0.5, JSON.stringify(absent));
  });
});
