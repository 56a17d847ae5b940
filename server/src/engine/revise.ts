// Verdicts from a verifier outside the checks (a model-backed judge) replace the aggregator's for the
// claims it decided; the findings, issues, severity and confidence follow, computed as the engine
// computes them, so a revised result reads like any other.
import { claimFindings, summaryOf } from './aggregate/summary.js';
import type { Claim, ClaimStatus, EngineRequest, EngineValidation, Evidence, Finding } from './types.js';
import { thresholdsOf } from './validate.js';

export interface ClaimRevision {
  /** Index in `claims`. */
  index: number;
  status: ClaimStatus;
  score: number;
  /** The span the verifier quoted, as evidence; none for `unsupported`. */
  evidence: Evidence[];
  /** For a reviewer: why the verifier decided so. */
  reason: string;
  verifier: NonNullable<Claim['verifier']>;
}

const claimStatusFindings = new Set<Finding['category']>(['contradicted_claim', 'unsupported_claim']);

/** The result with the revisions applied, and `notes` (findings about the verification itself) added. */
export function reviseValidation<R extends EngineValidation>(
  result: R,
  revisions: ClaimRevision[],
  notes: Finding[],
  request: EngineRequest,
): R {
  const thresholds = thresholdsOf(request);
  const byIndex = new Map(revisions.map((r) => [r.index, r]));
  const claims = result.claims.map((claim, index) => {
    const revision = byIndex.get(index);
    return revision
      ? { ...claim, status: revision.status, score: revision.score, evidence: revision.evidence, verifier: revision.verifier }
      : claim;
  });
  const kept = result.findings.filter(
    (f) => !(f.claim_index !== null && byIndex.has(f.claim_index ?? -1) && claimStatusFindings.has(f.category)),
  );
  const revised = revisions.flatMap((r) =>
    claimFindings({ claim: claims[r.index]!, reasons: [r.reason], conflictingSources: [] }, r.index, thresholds),
  );
  // Claim findings in claim order, then those about the answer as a whole, as the engine orders them.
  const findings = [...kept, ...revised, ...notes]
    .map((finding, order) => ({ finding, order }))
    .sort(
      (a, b) =>
        (a.finding.claim_index ?? Number.MAX_SAFE_INTEGER) - (b.finding.claim_index ?? Number.MAX_SAFE_INTEGER) || a.order - b.order,
    )
    .map(({ finding }) => finding);
  const summary = summaryOf(
    findings,
    claims.map((c) => c.score),
    result.source_conflict_count,
    thresholds,
  );
  return { ...result, claims, ...summary };
}
