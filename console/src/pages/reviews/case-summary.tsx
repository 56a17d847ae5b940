// A case at a glance: the question, who asked and when, the check's verdict and where the review stands.
import type { ValidationRecord } from '@groundcheck/sdk';
import { caseTime } from './case-time';
import { confidenceWords, modeWords, stateWords } from './review-words';

export function CaseSummary({ record }: { record: ValidationRecord }) {
  return (
    <div className="stack">
      <p className="case-question">{record.question}</p>
      <dl className="facts">
        <div>
          <dt>Review</dt>
          <dd>
            <span className={`review-state ${record.review.state}`}>{stateWords[record.review.state]}</span>
          </dd>
        </div>
        <div>
          <dt>Checked</dt>
          <dd>
            <time dateTime={record.created_at}>{caseTime(record.created_at)}</time> by {record.user.name ?? record.user.id}
          </dd>
        </div>
        <div>
          <dt>Mode</dt>
          <dd>{modeWords[record.mode]}</dd>
        </div>
        <div>
          <dt>Confidence</dt>
          <dd>{confidenceWords[record.confidence_level]}</dd>
        </div>
        <div>
          <dt>Severity</dt>
          <dd>{record.severity}</dd>
        </div>
        <div>
          <dt>Issues</dt>
          <dd>{record.issue_count}</dd>
        </div>
      </dl>
      {record.issues.length > 0 && (
        <ul className="issues">
          {record.issues.map((issue) => (
            <li key={issue}>{issue}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
