// What a history record keeps of a validation's answer beyond its excerpt: the answer, its claims
// with their evidence and the sources they cite, so that a reviewer reads the case as the validation
// answered it. Bounded (the contract's ValidationRecord) so that a record, written in one batch with
// a keyed request's answer, stays far below Cosmos DB's 2 MB item and batch limits whatever the answer.
import type { Claim, SourceUsed } from '@groundcheck/contract';

/** The longest answer a request may check (the contract's ChatbotResponse). */
export const outputChars = 50_000;
export const evidencePerClaim = 3;
/** Bytes of JSON the kept claims take at most. */
export const claimsBytes = 256 * 1024;
export const sourceCount = 200;

export interface RecordedDetail {
  output: string;
  claims: Claim[];
  sources: SourceUsed[];
}

export function recordedDetail(output: string, claims: readonly Claim[], sources: readonly SourceUsed[]): RecordedDetail {
  const kept = output.slice(0, outputChars);
  const keptClaims: Claim[] = [];
  let bytes = 2;
  for (const claim of claims) {
    if (claim.end > kept.length) break;
    const bounded = { ...claim, evidence: claim.evidence.slice(0, evidencePerClaim) };
    bytes += Buffer.byteLength(JSON.stringify(bounded)) + 1;
    if (bytes > claimsBytes) break;
    keptClaims.push(bounded);
  }
  const cited = new Set(keptClaims.flatMap((claim) => claim.evidence.map((evidence) => evidence.source_id)));
  const keptSources = [...sources.filter((s) => cited.has(s.source_id)), ...sources.filter((s) => !cited.has(s.source_id))].slice(
    0,
    sourceCount,
  );
  return { output: kept, claims: keptClaims, sources: keptSources };
}
