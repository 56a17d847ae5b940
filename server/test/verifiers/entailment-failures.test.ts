// What the entailment model refuses: folders it cannot use (each one typed error naming the file, relative to the
// folder), and input past its bounds.
import assert from 'node:assert/strict';
import { mkdir, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import {
  EntailmentModelUnavailable,
  encodePair,
  loadEntailmentModel,
  maxPairsPerCall,
} from '../../src/verifiers/entailment/entailment-model.js';
import { editJson, emptyDir, tinyModelDir, tokenizerOf } from './support/entailment-folders.js';

async function assertUnavailable(dir: string, message: RegExp): Promise<void> {
  await assert.rejects(loadEntailmentModel(dir), (error: unknown) => {
    assert.ok(error instanceof EntailmentModelUnavailable, String(error));
    assert.match(error.message, message);
    assert.ok(!error.message.includes(dir), `the message names no full path: ${error.message}`);
    assert.ok(!error.message.includes('\n'), `the message is one line, no stack: ${error.message}`);
    return true;
  });
}

describe('a folder that cannot be used → EntailmentModelUnavailable naming the file', () => {
  test('a missing folder', async () => {
    await assertUnavailable(join(await emptyDir(), 'absent'), /the model folder does not exist/);
  });

  test('a file where the folder should be', async () => {
    const file = join(await emptyDir(), 'model');
    await writeFile(file, '');
    await assertUnavailable(file, /the model folder is not a directory/);
  });

  test('no model.onnx (nor onnx/model.onnx)', async () => {
    const dir = await tinyModelDir();
    await rm(join(dir, 'model.onnx'));
    await assertUnavailable(dir, /model\.onnx is missing/);
  });

  test('no tokenizer.json', async () => {
    const dir = await tinyModelDir();
    await rm(join(dir, 'tokenizer.json'));
    await assertUnavailable(dir, /tokenizer\.json is missing/);
  });

  test('no config.json', async () => {
    const dir = await tinyModelDir();
    await rm(join(dir, 'config.json'));
    await assertUnavailable(dir, /config\.json is missing/);
  });

  test('tokenizer_config.json may be absent', async () => {
    const dir = await tinyModelDir();
    await rm(join(dir, 'tokenizer_config.json'));
    await (await loadEntailmentModel(dir)).close();
  });

  test('a config.json that is not JSON, or not an object', async () => {
    const dir = await tinyModelDir();
    await writeFile(join(dir, 'config.json'), '{"id2label": {"0": "entailment",');
    await assertUnavailable(dir, /config\.json is not valid JSON/);
    await writeFile(join(dir, 'config.json'), '["entailment"]');
    await assertUnavailable(dir, /config\.json does not hold a JSON object/);
  });

  test('a config.json without id2label, or with gaps in it', async () => {
    const dir = await tinyModelDir();
    await editJson(join(dir, 'config.json'), ({ id2label, ...rest }) => rest);
    await assertUnavailable(dir, /config\.json has no id2label/);
    await editJson(join(dir, 'config.json'), (config) => ({ ...config, id2label: { 0: 'entailment', 2: 'neutral', 3: 'contradiction' } }));
    await assertUnavailable(dir, /config\.json id2label must map 0, 1/);
  });

  test('an unknown label set', async () => {
    const dir = await tinyModelDir({ labels: ['positive', 'neutral', 'negative'] });
    await assertUnavailable(dir, /config\.json id2label \(positive, neutral, negative\) is not a known head/);
  });

  test('an unknown single_output kind', async () => {
    const dir = await tinyModelDir({ single: 'logit' });
    await editJson(join(dir, 'config.json'), (config) => ({ ...config, single_output: 'odds' }));
    await assertUnavailable(dir, /config\.json single_output must be "logit" or "probability"/);
  });

  test('a model.onnx that is not ONNX', async () => {
    const dir = await tinyModelDir();
    await writeFile(join(dir, 'model.onnx'), 'this is not a model');
    await assertUnavailable(dir, /model\.onnx could not be loaded as an ONNX model/);
  });

  test('a model.onnx whose output does not match config.json (found by the test run at load)', async () => {
    const dir = await tinyModelDir();
    await editJson(join(dir, 'config.json'), (config) => ({ ...config, id2label: { 0: 'not_entailment', 1: 'entailment' } }));
    await assertUnavailable(dir, /model\.onnx outputs shape \[1, 3\] for 1 pairs; config\.json id2label expects \[1, 2\]/);
  });

  test('a tokenizer.json this tokenizer library cannot build', async () => {
    const dir = await tinyModelDir();
    await editJson(join(dir, 'tokenizer.json'), (tokenizer) => ({ ...tokenizer, model: { type: 'NoSuchModel' } }));
    await assertUnavailable(dir, /tokenizer\.json could not be read as a tokenizer/);
  });

  test('a directory where a file should be', async () => {
    const dir = await tinyModelDir();
    await rm(join(dir, 'tokenizer.json'));
    await mkdir(join(dir, 'tokenizer.json'));
    await assertUnavailable(dir, /tokenizer\.json (is not a file|cannot be read)/);
  });

  test('files over the size bounds are refused unread (sparse files, so nothing large is written)', async () => {
    const dir = await tinyModelDir();
    await truncate(join(dir, 'tokenizer.json'), 20 * 1024 * 1024 + 1);
    await assertUnavailable(dir, /tokenizer\.json is larger than 20 MB/);
    const other = await tinyModelDir();
    await truncate(join(other, 'model.onnx'), 2048 * 1024 * 1024 + 1);
    await assertUnavailable(other, /model\.onnx is larger than 2048 MB/);
  });
});

describe('input bounds', () => {
  test(`more than ${maxPairsPerCall} pairs in one call are refused; ${maxPairsPerCall} are scored`, async () => {
    const model = await loadEntailmentModel(await tinyModelDir(), { batchSize: 64 });
    const pairs = (count: number) => Array.from({ length: count }, () => ({ premise: 'the cat sat', hypothesis: 'not cat' }));
    await assert.rejects(model.score(pairs(maxPairsPerCall + 1)), RangeError);
    assert.equal((await model.score(pairs(maxPairsPerCall))).length, maxPairsPerCall);
    assert.deepEqual(await model.score([]), []);
    await model.close();
  });

  test('each text is cut at 20,000 characters', async () => {
    const tokenizer = await tokenizerOf(await tinyModelDir());
    // 'cat ' × 7,500 is 30,000 characters; the first 20,000 hold 5,000 words.
    assert.equal(encodePair(tokenizer, 'cat '.repeat(7500), 'dog', 100_000).ids.length, 5000 + 1 + 3);
    assert.equal(encodePair(tokenizer, 'dog', 'cat '.repeat(7500), 100_000).ids.length, 1 + 5000 + 3);
  });

  test('a closed model refuses to score; closing twice is harmless', async () => {
    const model = await loadEntailmentModel(await tinyModelDir());
    await model.close();
    await model.close();
    await assert.rejects(model.score([{ premise: 'cat', hypothesis: 'cat' }]), /closed/);
  });

  test('closing during a call stops it between batches, and releases the session after it', async () => {
    const model = await loadEntailmentModel(await tinyModelDir(), { batchSize: 1 });
    const call = model.score(Array.from({ length: 50 }, () => ({ premise: 'the cat sat', hypothesis: 'not cat' })));
    const closed = model.close();
    await assert.rejects(call, /closed/);
    await closed;
  });

  test('options out of range are refused', async () => {
    const dir = await tinyModelDir();
    await assert.rejects(loadEntailmentModel(dir, { batchSize: 0 }), RangeError);
    await assert.rejects(loadEntailmentModel(dir, { intraOpThreads: 1.5 }), RangeError);
    // [CLS] A [SEP] B [SEP] needs three special tokens and a token of each text.
    await assert.rejects(loadEntailmentModel(dir, { maxLength: 4 }), RangeError);
    await (await loadEntailmentModel(dir, { maxLength: 5 })).close();
  });
});
