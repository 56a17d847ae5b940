// Which model-backed verifiers this deployment offers, read from the environment at start-up: the
// deterministic checks always run; `openai` adds a judge for the claims they leave uncertain, `onnx` a
// local entailment model's signal (the model the project ships, or the operator's). Each tenant picks one in its tenant file (`engine.verifier`), or
// takes the deployment's default (ENGINE_VERIFIER): `onnx` unless set, because the shipped model ranks answers
// better held out and never changes a verdict (README, The shipped entailment model). Secrets come from the environment only.
import type { ValidationMetadata } from '@groundcheck/contract';
import { shippedModelDir } from './entailment/shipped-model.js';
import { type JudgeSettings, judgeSettingsFromEnv } from './judge/judge-settings.js';

/** As `metadata.engine.verifier` reports it. */
export type VerifierChoice = NonNullable<ValidationMetadata['engine']['verifier']>;

export interface VerifierDeployment {
  /** For tenants whose file does not choose. */
  defaultVerifier: VerifierChoice;
  /** Set when the environment configures an OpenAI-compatible endpoint (or ENGINE_VERIFIER asks for one). */
  judge: JudgeSettings | null;
  /** ENGINE_MODEL_DIR, or the model the project ships (server/models/groundcheck-nli): nothing is downloaded. */
  modelDir: string;
}

const choices: readonly VerifierChoice[] = ['none', 'openai', 'onnx'];

export function verifierDeploymentFromEnv(env: Record<string, string | undefined>): VerifierDeployment {
  const chosen = env.ENGINE_VERIFIER?.trim() || 'onnx';
  if (!(choices as readonly string[]).includes(chosen)) throw new Error(`ENGINE_VERIFIER must be one of ${choices.join(', ')}`);
  const defaultVerifier = chosen as VerifierChoice;
  const judgeConfigured = defaultVerifier === 'openai' || Boolean(env.OPENAI_API_KEY?.trim() || env.AZURE_OPENAI_ENDPOINT?.trim());
  const modelDir = env.ENGINE_MODEL_DIR?.trim() || shippedModelDir;
  return { defaultVerifier, judge: judgeConfigured ? judgeSettingsFromEnv(env) : null, modelDir };
}

/** Why a tenant's choice cannot run on this deployment, or null when it can. */
export function unavailableChoice(choice: VerifierChoice, deployment: VerifierDeployment): string | null {
  if (choice === 'openai' && !deployment.judge)
    return 'engine.verifier is openai, but OPENAI_API_KEY (or AZURE_OPENAI_ENDPOINT) is not set';
  return null;
}
