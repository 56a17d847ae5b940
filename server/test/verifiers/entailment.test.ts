// The local entailment model against a tiny ONNX model whose scores can be worked out by hand (support/tiny-model.ts):
// each token adds its weight row, so logits are sums and scores their softmax. Words: cat, dog, sat, mat, red,
// ran weigh 0.5 towards entailment; the, on, is, a and "." 0.25 towards neutral; "not" 3 towards contradiction;
// "##s" 0.1 towards entailment; unknown words 0.5 towards neutral; [CLS] and [SEP] nothing.
import assert from 'node:assert/strict';
import { basename, join } from 'node:path';
import { describe, test } from 'node:test';
import { encodePair, loadEntailmentModel } from '../../src/verifiers/entailment/entailment-model.js';
import { assertScores, editJson, nliScores, sigmoid, softmax, tinyModelDir, tokenizerOf } from './support/entailment-folders.js';
import { tinyLogits } from './support/tiny-model.js';

const notCat = { premise: 'cat', hypothesis: 'not cat' };

describe('loading a model folder', () => {
  test('a folder with model.onnx, tokenizer.json, tokenizer_config.json and config.json loads, named by config.json', async () => {
    const model = await loadEntailmentModel(await tinyModelDir());
    assert.equal(model.name, 'groundcheck/tiny-nli');
    assert.equal((await model.score([notCat])).length, 1);
    await model.close();
  });

  test('the model may sit in onnx/model.onnx, as optimum exports some', async () => {
    const model = await loadEntailmentModel(await tinyModelDir({ modelFile: 'onnx/model.onnx' }));
    assertScores((await model.score([notCat]))[0], nliScores([1, 0, 3]));
    await model.close();
  });

  test('without _name_or_path, or with a local path there, the model is named by its folder', async () => {
    for (const name of [null, '/home/operator/exports/nli', './nli', 'C:\\models\\nli']) {
      const dir = await tinyModelDir({ name });
      const model = await loadEntailmentModel(dir);
      assert.equal(model.name, basename(dir), String(name));
      await model.close();
    }
  });
});

describe('encoding a pair', () => {
  test("the tokenizer's own template: [CLS] premise [SEP] hypothesis [SEP], the hypothesis in segment 1", async () => {
    const dir = await tinyModelDir();
    const tokenizer = await tokenizerOf(dir);
    const { ids, typeIds } = encodePair(tokenizer, 'Dogs ran', 'the dog did not run', 512);
    assert.deepEqual(
      ids.map((id) => tokenizer.id_to_token(id)),
      ['[CLS]', 'dog', '##s', 'ran', '[SEP]', 'the', 'dog', '[UNK]', 'not', '[UNK]', '[SEP]'],
    );
    assert.deepEqual(typeIds, [0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1]);
    const reference = tokenizer.encode('Dogs ran', { text_pair: 'the dog did not run', return_token_type_ids: true });
    assert.deepEqual({ ids, typeIds }, { ids: reference.ids, typeIds: reference.token_type_ids });
  });

  test('a tokenizer without a post-processor puts the texts side by side, the second in segment 1', async () => {
    const dir = await tinyModelDir();
    await editJson(join(dir, 'tokenizer.json'), (tokenizer) => ({ ...tokenizer, post_processor: null }));
    const tokenizer = await tokenizerOf(dir);
    const { ids, typeIds } = encodePair(tokenizer, 'red cat', 'not', 512);
    assert.deepEqual(
      ids.map((id) => tokenizer.id_to_token(id)),
      ['red', 'cat', 'not'],
    );
    assert.deepEqual(typeIds, [0, 0, 1]);
  });

  test('over maxLength the premise is cut first and the hypothesis kept whole', async () => {
    const tokenizer = await tokenizerOf(await tinyModelDir());
    const tokens = (premise: string, hypothesis: string, maxLength: number) =>
      encodePair(tokenizer, premise, hypothesis, maxLength).ids.map((id) => tokenizer.id_to_token(id));
    assert.deepEqual(tokens('cat cat cat not not not', 'the dog', 8), ['[CLS]', 'cat', 'cat', 'cat', '[SEP]', 'the', 'dog', '[SEP]']);
    // A hypothesis longer than the room left is itself cut, and no premise is left.
    assert.deepEqual(tokens('cat', 'not not not not not not', 8), ['[CLS]', '[SEP]', 'not', 'not', 'not', 'not', 'not', '[SEP]']);
  });
});

describe('scores', () => {
  test('equal the softmax of the hand-summed logits', async () => {
    const model = await loadEntailmentModel(await tinyModelDir());
    const scores = await model.score([
      notCat,
      // the cat sat on the mat . | the cat sat . → cat, sat, mat, cat, sat: 2.5; the, on, the, ., the, .: 1.5
      { premise: 'The cat sat on the mat.', hypothesis: 'The cat sat.' },
      // dog ##s ran | the dog [UNK] not [UNK] → 0.5 + 0.1 + 0.5 + 0.5; 0.25 + 0.5 + 0.5; 3
      { premise: 'Dogs ran', hypothesis: 'the dog did not run' },
    ]);
    assertScores(scores[0], nliScores([1, 0, 3]), 'cat / not cat');
    assert.ok(scores[0]!.contradiction > 0.84);
    assertScores(scores[1], nliScores([2.5, 1.5, 0]), 'the cat sat');
    assertScores(scores[2], nliScores([1.6, 1.25, 3]), 'dogs ran');
    await model.close();
  });

  test('19 pairs in batches of 8 score as they do one by one, in order', async () => {
    const dir = await tinyModelDir();
    const tokenizer = await tokenizerOf(dir);
    const words = ['the', 'cat', 'not', 'sat', 'on', 'a', 'red', 'mat', 'dog', 'ran', 'is', 'purple'];
    const phrase = (seed: number, length: number) => Array.from({ length }, (_, i) => words[(seed * 7 + i * 5) % words.length]).join(' ');
    const pairs = Array.from({ length: 19 }, (_, i) => ({ premise: phrase(i, 1 + (i % 9)), hypothesis: phrase(i + 3, 1 + ((i * 4) % 7)) }));
    const batched = await loadEntailmentModel(dir, { batchSize: 8 });
    const single = await loadEntailmentModel(dir, { batchSize: 1 });
    const together = await batched.score(pairs);
    assert.equal(together.length, 19);
    for (const [i, pair] of pairs.entries()) {
      const [alone] = await single.score([pair]);
      assertScores(together[i], alone!, `pair ${i}`);
      const { ids, typeIds } = encodePair(tokenizer, pair.premise, pair.hypothesis, 512);
      const [e, n, c] = tinyLogits(
        ids.map((id) => tokenizer.id_to_token(id)!),
        typeIds,
      );
      assertScores(together[i], nliScores([e!, n!, c!]), `pair ${i}`);
    }
    await Promise.all([batched.close(), single.close()]);
  });

  test('padding a short row to a long one does not change its score: the attention mask is fed', async () => {
    // [PAD] weighs 7, -3, 5 in the tiny model, so any padded position counted would move the scores far.
    const model = await loadEntailmentModel(await tinyModelDir());
    const long = { premise: 'the red dog sat on the mat and the cat ran on the mat', hypothesis: 'a dog is on a mat' };
    const [padded, other] = await model.score([notCat, long]);
    const [alone] = await model.score([notCat]);
    assertScores(padded, alone!);
    assertScores(padded, nliScores([1, 0, 3]));
    assertScores(other, (await model.score([long]))[0]!);
    await model.close();
  });

  test('a premise over maxLength is cut, so the words past the cut do not count', async () => {
    // [CLS] cat cat cat [SEP] the dog [SEP]: the three "not" are cut.
    const model = await loadEntailmentModel(await tinyModelDir(), { maxLength: 8 });
    assertScores((await model.score([{ premise: 'cat cat cat not not not', hypothesis: 'the dog' }]))[0], nliScores([2, 0.25, 0]));
    await model.close();
  });

  test("maxLength is capped by tokenizer_config.json's model_max_length", async () => {
    const model = await loadEntailmentModel(await tinyModelDir({ modelMaxLength: 8 }), { maxLength: 512 });
    assertScores((await model.score([{ premise: 'cat cat cat not not not', hypothesis: 'the dog' }]))[0], nliScores([2, 0.25, 0]));
    await model.close();
  });

  test('id2label order is honoured, matched case-insensitively: contradiction at index 0', async () => {
    const reordered = await loadEntailmentModel(await tinyModelDir({ labels: ['CONTRADICTION', 'Neutral', 'entailment'] }));
    const standard = await loadEntailmentModel(await tinyModelDir());
    const pairs = [notCat, { premise: 'The cat sat on the mat.', hypothesis: 'The cat sat.' }];
    const expected = await standard.score(pairs);
    for (const [i, scores] of (await reordered.score(pairs)).entries()) assertScores(scores, expected[i]!);
    assertScores(expected[0], nliScores([1, 0, 3]));
    await Promise.all([reordered.close(), standard.close()]);
  });

  test('a model that also takes token_type_ids is fed them', async () => {
    // The second segment (not, cat, [SEP]) adds 1 towards neutral per token.
    const model = await loadEntailmentModel(await tinyModelDir({ tokenTypes: true }));
    assertScores((await model.score([notCat]))[0], nliScores([1, 3, 3]));
    await model.close();
  });
});

describe('single-output and two-label heads', () => {
  // One logit per pair: entailment minus contradiction weights, cat + not + cat = 0.5 - 3 + 0.5 = -2.
  const p = sigmoid(-2);

  test('one logit → sigmoid: entailment p, neutral 1 - p, contradiction 0', async () => {
    const model = await loadEntailmentModel(await tinyModelDir({ single: 'logit' }));
    assertScores((await model.score([notCat]))[0], { entailment: p, neutral: 1 - p, contradiction: 0 });
    await model.close();
  });

  test('one probability when config.json says single_output: "probability"', async () => {
    const model = await loadEntailmentModel(await tinyModelDir({ single: 'probability' }));
    assertScores((await model.score([notCat]))[0], { entailment: p, neutral: 1 - p, contradiction: 0 });
    await model.close();
  });

  test('entailment / not_entailment → softmax; the entailment probability as for one output', async () => {
    // not_entailment weighs neutral + contradiction: cat, not, cat → entailment 1, not_entailment 3.
    const model = await loadEntailmentModel(await tinyModelDir({ labels: ['not_entailment', 'entailment'] }));
    const [, entailment] = softmax([3, 1]) as [number, number];
    assertScores((await model.score([notCat]))[0], { entailment, neutral: 1 - entailment, contradiction: 0 });
    await model.close();
  });
});
