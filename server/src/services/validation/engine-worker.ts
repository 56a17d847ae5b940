// Runs in a worker thread of the engine pool: one built-in engine per thread, loaded once.
import { createEngine } from '../../engine/index.js';
import type { EngineTask } from './engine-pool.js';

const engine = createEngine();

export default function run({ mode, request }: EngineTask) {
  if (mode === 'generate') return engine.generate(request);
  if (mode === 'validate_and_fix') return engine.fix(request);
  return engine.validate(request);
}
