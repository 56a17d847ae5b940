// Runs in a worker thread of the engine pool: one built-in engine per thread, loaded once, and, for
// tenants that use it, the local entailment model, loaded once per thread from the operator's folder.

import { entailmentPairs } from '../../engine/entailment.js';
import { createEngine, type EngineRequest } from '../../engine/index.js';
import { reviseValidation } from '../../engine/revise.js';
import { assess } from '../../engine/validate.js';
import { verifierUnavailable } from '../../engine/verifier-note.js';
import { type EntailmentModel, EntailmentModelUnavailable, loadEntailmentModel } from '../../verifiers/entailment/entailment-model.js';
import type { EngineTask } from './engine-pool.js';

const engine = createEngine();
const models = new Map<string, Promise<EntailmentModel>>();

/** Thrown where a task whose caller has gone stops (engine-pool.ts): the pool answers with the caller's abort. */
class TaskCancelled extends Error {}

function stopIfCancelled(cancelled: Int32Array | undefined): void {
  if (cancelled && Atomics.load(cancelled, 0) === 1) throw new TaskCancelled('the caller went away');
}

export default async function run({ mode, request, entailment, cancelled }: EngineTask) {
  stopIfCancelled(cancelled);
  const scored = entailment && mode !== 'generate' ? await withEntailment(request, entailment, cancelled) : { request, failure: undefined };
  const result = await runMode(mode, scored.request);
  return scored.failure ? reviseValidation(result, [], [verifierUnavailable('onnx', scored.failure)], request) : result;
}

function runMode(mode: EngineTask['mode'], request: EngineRequest) {
  if (mode === 'generate') return engine.generate(request);
  if (mode === 'validate_and_fix') return engine.fix(request);
  return engine.validate(request);
}

/** The request with the model's scores for its claims, or the reason the model could not give them. */
async function withEntailment(
  request: EngineRequest,
  { modelDir, weight }: NonNullable<EngineTask['entailment']>,
  cancelled: Int32Array | undefined,
): Promise<{ request: EngineRequest; failure: string | undefined }> {
  const pairs = entailmentPairs(assess(request));
  // The checks' first pass may take long on large sources; the model is not asked for a caller that has gone.
  stopIfCancelled(cancelled);
  try {
    const model = await modelFrom(modelDir);
    const scores = pairs.length === 0 ? [] : await model.score(pairs);
    return {
      request: { ...request, entailment: { scores: pairs.map((pair, i) => ({ pair, scores: scores[i]! })), weight } },
      failure: undefined,
    };
  } catch (error) {
    // The operator sees why in the server's log; the caller sees that the model did not take part.
    return {
      request,
      failure: error instanceof EntailmentModelUnavailable ? 'the model could not be loaded' : 'the model failed to score',
    };
  }
}

function modelFrom(dir: string): Promise<EntailmentModel> {
  let model = models.get(dir);
  if (!model) {
    model = loadEntailmentModel(dir, { intraOpThreads: 1 });
    // A folder that failed to load is tried again on a later request (the operator may fix it).
    model.catch(() => models.delete(dir));
    models.set(dir, model);
  }
  return model;
}
