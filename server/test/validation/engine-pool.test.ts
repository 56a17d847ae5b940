import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createEngine } from '../../src/engine/index.js';
import { EnginePool } from '../../src/services/validation/engine-pool.js';
import { shippedModelDir } from '../../src/verifiers/entailment/shipped-model.js';

let pool: EnginePool;
before(() => {
  pool = new EnginePool(2);
});
after(() => pool.close());

const source = 'Full-time employees are entitled to 25 days of paid leave per calendar year. Part-time staff accrue leave pro rata.';
const request = {
  question: 'How many days of paid leave do full-time employees get?',
  answer: 'Full-time employees get 30 days of paid leave per year.',
  sources: [{ source_id: 'src_1', text: source }],
};

test('each mode gives in a worker exactly what the engine gives in this thread', async () => {
  const engine = createEngine();
  assert.deepEqual(await pool.run('validate', request), await engine.validate(request));
  assert.deepEqual(await pool.run('validate_and_fix', request), await engine.fix(request));
  assert.deepEqual(await pool.run('generate', request), await engine.generate(request));
});

test('a large validation runs without blocking this thread, and an aborted one stops', async () => {
  const big = { ...request, sources: [{ source_id: 'src_1', text: `${source} `.repeat(40_000) }] };
  let ticks = 0;
  const ticker = setInterval(() => {
    ticks += 1;
  }, 5);
  const controller = new AbortController();
  const aborted = pool.run('validate', big, controller.signal);
  const finished = pool.run('validate', big);
  setTimeout(() => controller.abort(), 20);
  await assert.rejects(aborted, (error: Error) => error.name === 'AbortError');
  const result = await finished;
  clearInterval(ticker);
  assert.equal(result.claims.length > 0, true);
  // This thread kept running timers while the workers validated (the benchmark measures the delay).
  assert.ok(ticks > 0);
});

test('a task with the entailment model whose caller has gone is told to stop, not stopped by force', async () => {
  const entailment = { modelDir: shippedModelDir, weight: 1 };
  const controller = new AbortController();
  const cut = pool.run('validate', request, controller.signal, entailment);
  controller.abort();
  await assert.rejects(cut, (error: Error) => error.name === 'AbortError');
  // The thread that was told goes on serving, with the model.
  const result = await pool.run('validate', request, undefined, entailment);
  assert.deepEqual(
    result.claims.map((claim) => claim.status),
    ['contradicted'],
  );
});
