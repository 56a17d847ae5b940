// An answer's risk: one minus its lowest claim score (one minus its confidence when it has no claims). The eval ranks
// answers by it, and a tenant's operating point is fitted on it (a risk of r is a `supported_score` of 1 − r).
import type { EngineValidation } from './types.js';

export function answerRisk(result: Pick<EngineValidation, 'claims' | 'confidence_score'>): number {
  const confidence = result.confidence_score ?? 1;
  const scores = result.claims.map((claim) => claim.score ?? confidence);
  return 1 - (scores.length > 0 ? Math.min(...scores) : confidence);
}
