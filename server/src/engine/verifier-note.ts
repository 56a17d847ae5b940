// The finding that says a configured verifier did not take part: the claims it would have decided
// keep the checks' verdicts. It counts as an issue (a warning of low severity), so that a tenant whose
// workflow reviews answers with issues gets a person to look when the verification it asked for did not run.
import type { Claim, Finding } from './types.js';

/** A model-backed verifier, as the contract names what decided a claim. */
export type VerifierName = Exclude<NonNullable<Claim['verifier']>, 'deterministic'>;

const verifierNames: Record<VerifierName, string> = {
  openai: 'The model-backed judge',
  onnx: 'The local entailment model',
};

export function verifierUnavailable(verifier: VerifierName, why: string): Finding {
  return {
    category: 'verifier_unavailable',
    status: 'warning',
    severity: 'low',
    claim_index: null,
    title: 'Verifier unavailable',
    description: `${verifierNames[verifier]} could not be used (${why}); the claims keep the deterministic checks' verdicts.`,
  };
}
