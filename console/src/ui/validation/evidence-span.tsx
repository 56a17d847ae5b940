// An evidence span in its source: with the words around it when the page has the source's text
// (inline text the person typed), else the span alone as the API returns it.
import type { Evidence } from '@groundcheck/sdk';

const context = 160;

export function EvidenceSpan({ evidence, sourceText }: { evidence: Evidence; sourceText: string | undefined }) {
  const inText = sourceText !== undefined && evidence.end <= sourceText.length && evidence.start < evidence.end;
  if (!inText) {
    return (
      <blockquote className="evidence-quote">
        <mark className="evidence">{evidence.text}</mark>
      </blockquote>
    );
  }
  const from = Math.max(0, evidence.start - context);
  const to = Math.min(sourceText.length, evidence.end + context);
  return (
    <blockquote className="evidence-quote">
      {from > 0 && '…'}
      {sourceText.slice(from, evidence.start)}
      <mark className="evidence">{sourceText.slice(evidence.start, evidence.end)}</mark>
      {sourceText.slice(evidence.end, to)}
      {to < sourceText.length && '…'}
    </blockquote>
  );
}
