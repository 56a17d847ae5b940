// A validation as the check screen shows it: the verdict in words, the answer with its claims, the
// correction or the generated answer's sources, and the sources the server skipped.
import type { Validation } from '@groundcheck/sdk';
import { useId } from 'react';
import { AnnotatedAnswer } from '../../ui/validation/annotated-answer';
import { CorrectedAnswer } from './corrected-answer';

function checkedText(result: Validation): string {
  return result.mode === 'generate' ? result.answer : result.chatbot_response;
}

export function ValidationResult({ result, inlineText }: { result: Validation; inlineText: string }) {
  const inline = result.sources.find((source) => source.kind === 'inline_text');
  const sourceTexts = inline ? { [inline.source_id]: inlineText } : {};
  const skipped = result.metadata.skipped_sources;
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="stack">
      <h2 id={headingId}>Result</h2>
      <dl className="facts">
        <div>
          <dt>Issues</dt>
          <dd>{result.issue_count === 0 ? 'None' : result.issue_count}</dd>
        </div>
        <div>
          <dt>Confidence that the answer holds</dt>
          <dd>
            {result.confidence_level}
            {result.confidence_score === undefined ? '' : ` (${result.confidence_score.toFixed(2)})`}
          </dd>
        </div>
        <div>
          <dt>Severity</dt>
          <dd>{result.severity}</dd>
        </div>
        <div>
          <dt>Review</dt>
          <dd>{result.review.required ? `Sent to review (${result.review.state.replaceAll('_', ' ')})` : 'Not required'}</dd>
        </div>
      </dl>
      {result.issues.length > 0 && (
        <ul className="issues">
          {result.issues.map((issue) => (
            <li key={issue}>{issue}</li>
          ))}
        </ul>
      )}
      {result.mode === 'generate' && <h3>Generated answer</h3>}
      <AnnotatedAnswer
        text={checkedText(result)}
        claims={result.claims}
        findings={result.findings}
        sources={result.sources}
        sourceTexts={sourceTexts}
      />
      {result.mode === 'validate_and_fix' && (
        <>
          <h3>Corrected answer</h3>
          <div className="card">
            <CorrectedAnswer original={result.chatbot_response} corrected={result.corrected_response} />
          </div>
        </>
      )}
      {result.mode === 'generate' && (
        <>
          <h3>Cited sources</h3>
          <ul>
            {result.sources.map((source) => (
              <li key={source.source_id}>{source.kind === 'url' ? <a href={source.reference}>{source.reference}</a> : source.reference}</li>
            ))}
          </ul>
        </>
      )}
      {skipped.length > 0 && (
        <>
          <h3>Sources not used</h3>
          <ul>
            {skipped.map((source) => (
              <li key={`${source.kind}-${source.reference}`}>
                {source.reference}: {source.detail ?? source.reason.replaceAll('_', ' ')}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
