// What a reviewer's correction may name (the contract's `element`, for example `claim:0` or
// `answer`): each claim the record kept, or, on a record made before claims were kept, each claim
// a finding names; and the answer as a whole.
import type { ValidationRecord } from '@groundcheck/sdk';

export interface CorrectionTarget {
  element: string;
  label: string;
}

const statusWords = { supported: 'supported', unsupported: 'not in the sources', contradicted: 'contradicted' } as const;

function shortened(text: string, chars = 90): string {
  return text.length <= chars ? text : `${text.slice(0, chars - 1)}…`;
}

export function correctionTargets(record: ValidationRecord): CorrectionTarget[] {
  const whole = { element: 'answer', label: 'The answer as a whole' };
  if (record.claims)
    return [
      ...record.claims.map((claim, i) => ({
        element: `claim:${i}`,
        label: `Claim ${i + 1} (${statusWords[claim.status]}): ${shortened(claim.text)}`,
      })),
      whole,
    ];
  const named = new Map<number, string>();
  for (const finding of record.findings ?? [])
    if (typeof finding.claim_index === 'number' && !named.has(finding.claim_index)) named.set(finding.claim_index, finding.title);
  return [
    ...[...named.entries()]
      .sort(([a], [b]) => a - b)
      .map(([i, title]) => ({ element: `claim:${i}`, label: `Claim ${i + 1}: ${shortened(title)}` })),
    whole,
  ];
}

/** The target a first correction starts on: the first claim found wanting, else the whole answer. */
export function firstTarget(record: ValidationRecord, targets: readonly CorrectionTarget[]): string {
  const flagged = record.claims?.findIndex((claim) => claim.status !== 'supported') ?? -1;
  if (flagged >= 0) return `claim:${flagged}`;
  return targets[0]!.element;
}
