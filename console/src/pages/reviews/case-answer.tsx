// The answer a case is about: with its claims marked and their evidence when the record keeps them,
// else (records made before it did) the findings and the start of the answer.
import type { ValidationRecord } from '@groundcheck/sdk';
import { AnnotatedAnswer } from '../../ui/validation/annotated-answer';

export function CaseAnswer({ record }: { record: ValidationRecord }) {
  const findings = record.findings ?? [];
  if (record.output !== undefined && record.claims)
    return <AnnotatedAnswer text={record.output} claims={record.claims} findings={findings} sources={record.sources ?? []} />;
  return (
    <div className="stack">
      <p className="notice">
        This case was recorded before the history kept answers whole: its findings and the start of the answer follow.
      </p>
      <blockquote className="card answer-excerpt">{record.output_excerpt}</blockquote>
      {findings.length > 0 && (
        <ul>
          {findings.map((finding) => (
            <li key={`${finding.category}-${finding.claim_index ?? ''}-${finding.title}`}>
              <strong>{finding.title}</strong> ({finding.status}, {finding.severity}) {finding.description}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
