// The answer cut into plain text and claims, by the claims' offsets (UTF-16, as the API gives them).
import type { Claim } from '@groundcheck/sdk';

export type Segment = { kind: 'text'; text: string } | { kind: 'claim'; index: number; claim: Claim; text: string };

export function claimSegments(text: string, claims: readonly Claim[]): Segment[] {
  const ordered = claims.map((claim, index) => ({ claim, index })).sort((a, b) => a.claim.start - b.claim.start);
  const segments: Segment[] = [];
  let cursor = 0;
  for (const { claim, index } of ordered) {
    // A claim that overlaps the one before it, or lies outside the text, is listed but not marked inline.
    if (claim.start < cursor || claim.end > text.length || claim.end <= claim.start) continue;
    if (claim.start > cursor) segments.push({ kind: 'text', text: text.slice(cursor, claim.start) });
    segments.push({ kind: 'claim', index, claim, text: text.slice(claim.start, claim.end) });
    cursor = claim.end;
  }
  if (cursor < text.length) segments.push({ kind: 'text', text: text.slice(cursor) });
  return segments;
}

/** The claim a reader should see first: the first that is not supported, else the first. */
export function firstClaimToShow(claims: readonly Claim[]): number | null {
  if (claims.length === 0) return null;
  const flagged = claims.findIndex((claim) => claim.status !== 'supported');
  return flagged === -1 ? 0 : flagged;
}
