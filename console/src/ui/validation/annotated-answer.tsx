// The checked answer with each claim marked by its status. Focusing, hovering or pressing a claim
// shows its reasons and evidence beside the answer (below it on a phone); the marks are buttons, so
// the keyboard reaches every claim with Tab.
import type { Claim, Finding, SourceUsed } from '@groundcheck/sdk';
import { useState } from 'react';
import { ClaimDetails } from './claim-details';
import { claimSegments, firstClaimToShow } from './claim-segments';

const hiddenStatus: Record<Claim['status'], string> = {
  supported: 'supported',
  unsupported: 'not in the sources',
  contradicted: 'contradicted',
};

export interface AnnotatedAnswerProps {
  /** The checked answer; the claims' offsets refer to it. */
  text: string;
  claims: readonly Claim[];
  /** Findings on a claim (`claim_index`) are shown as its reasons. */
  findings: readonly Finding[];
  sources: readonly SourceUsed[];
  /** Source texts the page holds, by `source_id`, to show evidence in its context. */
  sourceTexts?: Readonly<Record<string, string>>;
}

export function AnnotatedAnswer({ text, claims, findings, sources, sourceTexts = {} }: AnnotatedAnswerProps) {
  const [selected, setSelected] = useState<number | null>(() => firstClaimToShow(claims));
  const counts = { supported: 0, unsupported: 0, contradicted: 0 };
  for (const claim of claims) counts[claim.status] += 1;
  const shown = selected === null ? undefined : claims[selected];
  return (
    <div className="annotated-answer">
      <section aria-label="Answer" className="card">
        <p className="muted">
          {claims.length} {claims.length === 1 ? 'claim' : 'claims'}: {counts.supported} supported, {counts.unsupported} not in the sources,{' '}
          {counts.contradicted} contradicted. Choose a claim to see its evidence.
        </p>
        <p className="answer-text">
          {claimSegments(text, claims).map((segment) =>
            segment.kind === 'text' ? (
              segment.text
            ) : (
              <button
                key={segment.index}
                type="button"
                className={`claim ${segment.claim.status}`}
                aria-pressed={selected === segment.index}
                onFocus={() => setSelected(segment.index)}
                onMouseEnter={() => setSelected(segment.index)}
                onClick={() => setSelected(segment.index)}
              >
                {segment.text}
                <span className="visually-hidden"> ({hiddenStatus[segment.claim.status]})</span>
              </button>
            ),
          )}
        </p>
      </section>
      <section aria-label="Claim details" aria-live="polite" className="card">
        {shown && selected !== null ? (
          <ClaimDetails claim={shown} index={selected} findings={findings} sources={sources} sourceTexts={sourceTexts} />
        ) : (
          <p className="muted">The answer holds no claim to check.</p>
        )}
      </section>
    </div>
  );
}
