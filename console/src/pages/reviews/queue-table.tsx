// One page of cases: each row names the question (a link to the case), who asked and when, how
// confident the check was, its issues and where its review stands.
import type { ValidationRecord } from '@groundcheck/sdk';
import { Link, useLocation } from 'react-router';
import { caseTime } from './case-time';
import { confidenceWords, stateWords } from './review-words';

export function QueueTable({ records, caption }: { records: readonly ValidationRecord[]; caption: string }) {
  const { search } = useLocation();
  return (
    <div className="table-wrap">
      <table className="queue-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Case</th>
            <th scope="col" className="wide-only">
              Confidence
            </th>
            <th scope="col" className="wide-only">
              Issues
            </th>
            <th scope="col">Review</th>
          </tr>
        </thead>
        <tbody>
          {records.map((record) => (
            <tr key={record.validation_id}>
              <td>
                <Link to={`/reviews/${record.validation_id}`} state={{ queue: search }}>
                  {record.question}
                </Link>
                <div className="muted case-meta">
                  {caseTime(record.created_at)} · {record.user.name ?? record.user.id}
                  {/* A phone has no room for their columns. */}
                  <span className="phone-only">
                    {' '}
                    · {confidenceWords[record.confidence_level]} confidence · {record.issue_count}{' '}
                    {record.issue_count === 1 ? 'issue' : 'issues'}
                  </span>
                </div>
              </td>
              <td className="wide-only">{confidenceWords[record.confidence_level]}</td>
              <td className="wide-only">{record.issue_count}</td>
              <td>
                <span className={`review-state ${record.review.state}`}>{stateWords[record.review.state]}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
