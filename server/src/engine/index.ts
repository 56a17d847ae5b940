// The validation engine: one interface for validate, validate_and_fix and generate. The built-in
// engine is deterministic and needs no network. The model-backed verifiers a tenant may add by
// configuration sit around it (services/validation/claim-verification.ts, and the entailment signal
// in the engine's worker); another engine can still be supplied in code behind the same interface.
import { fixAnswer } from './fix.js';
import { generateAnswer } from './generate.js';
import type { EngineIdentity, EngineRequest, ValidationEngine } from './types.js';
import { validateDetailed } from './validate.js';
import { deterministicEngine } from './version.js';

export type {
  EngineRequest,
  EngineSource,
  EngineThresholds,
  EngineValidation,
  FixResult,
  GenerateResult,
  ValidationEngine,
} from './types.js';
export { defaultThresholds } from './types.js';
export { deterministicEngine } from './version.js';

export type EngineConfig =
  | { method?: 'deterministic' }
  /** An engine supplied by the caller (for example one that asks a language model to judge claims). */
  | { method: 'custom'; engine: ValidationEngine };

export function createEngine(config: EngineConfig = {}): ValidationEngine {
  if (config.method === 'custom') return config.engine;
  return createDeterministicEngine();
}

function createDeterministicEngine(): ValidationEngine {
  const identity: EngineIdentity = { ...deterministicEngine };
  return {
    identity,
    validate: async (request: EngineRequest) => validateDetailed(request).result,
    fix: async (request: EngineRequest) => fixAnswer(request),
    generate: async (request: EngineRequest) => generateAnswer(request),
  };
}
