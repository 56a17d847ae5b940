// The engine's public shapes. Everything the contract already defines is taken from the generated
// types; only what the contract leaves to the engine (thresholds, inputs) is declared here.
import type { Correction, Severity, UserCorrection, ValidationCommon } from '@groundcheck/contract';

export type {
  Claim,
  ClaimStatus,
  ConfidenceLevel,
  Correction,
  Evidence,
  Finding,
  Severity,
  UserCorrection,
  ValidationCommon,
} from '@groundcheck/contract';

/** A local entailment model's probabilities for one (passage, claim) pair. */
export interface EntailmentScores {
  entailment: number;
  contradiction: number;
  neutral: number;
}

export interface EntailmentPair {
  /** The passage: what the sources say. */
  premise: string;
  /** The claim. */
  hypothesis: string;
}

/** Scored pairs and the weight the operator gives the model's signal (`engine.entailment_weight`), read by entailment.ts. */
export interface EntailmentInput {
  scores: { pair: EntailmentPair; scores: EntailmentScores }[];
  weight: number;
}

/** One source, its text already extracted; evidence offsets index into `text`. */
export interface EngineSource {
  source_id: string;
  text: string;
}

/**
 * The per-tenant knobs that map scores to levels. Defaults in `defaultThresholds`; a tenant file may
 * override any of them (see the README section on the engine).
 */
export interface EngineThresholds {
  /** A claim whose score is below this is not `supported`. */
  supportedScore: number;
  /** `confidence_score` at or above this gives `confidence_level: high`. */
  highConfidence: number;
  /** `confidence_score` at or above this (and below high) gives `medium`; below it, `low`. */
  mediumConfidence: number;
  contradictedSeverity: Severity;
  unsupportedSeverity: Severity;
  sourceConflictSeverity: Severity;
}

export const defaultThresholds: EngineThresholds = {
  supportedScore: 0.5,
  highConfidence: 0.8,
  mediumConfidence: 0.5,
  contradictedSeverity: 'high',
  unsupportedSeverity: 'medium',
  sourceConflictSeverity: 'medium',
};

export interface EngineRequest {
  question: string;
  /** The answer to check; not used by `generate`. */
  answer?: string;
  sources: EngineSource[];
  thresholds?: Partial<EngineThresholds>;
  /** A local entailment model's scores for this answer's claims, when the tenant uses one. */
  entailment?: EntailmentInput;
}

export interface EngineIdentity {
  method: string;
  version: string;
}

/** The part of `ValidationCommon` that the engine decides; the service adds ids, sources, review. */
export type EngineValidation = Pick<
  ValidationCommon,
  'claims' | 'findings' | 'issues' | 'issue_count' | 'severity' | 'confidence_level' | 'confidence_score' | 'source_conflict_count'
> & { engine: EngineIdentity };

export interface FixResult extends EngineValidation {
  corrected_response: string;
  corrections: Correction[];
  /** The same changes in the webhook's `user_corrections` form (element, action, note). */
  user_corrections: UserCorrection[];
}

export interface GenerateResult extends EngineValidation {
  answer: string;
}

/** One engine behind the three modes; async so that a model-backed judge can sit behind it. */
export interface ValidationEngine {
  readonly identity: EngineIdentity;
  validate(request: EngineRequest): Promise<EngineValidation>;
  fix(request: EngineRequest): Promise<FixResult>;
  generate(request: EngineRequest): Promise<GenerateResult>;
}
