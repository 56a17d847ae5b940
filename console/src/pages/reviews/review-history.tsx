// What happened to a case, oldest first: who did what and when, with their note, the external
// reference and the corrections they recorded.
import type { ReviewEntry } from '@groundcheck/sdk';
import { caseTime } from './case-time';
import { actionWords } from './review-words';

export function actorName(entry: ReviewEntry): string {
  return `${entry.actor.name ?? entry.actor.id} (${entry.actor.role})`;
}

export function ReviewEntryText({ entry }: { entry: ReviewEntry }) {
  return (
    <>
      <p>
        <strong>{actionWords[entry.action]}</strong> by {actorName(entry)}, <time dateTime={entry.at}>{caseTime(entry.at)}</time>
      </p>
      {entry.note && <p className="review-note">“{entry.note}”</p>}
      {entry.external_reference && <p>External reference: {entry.external_reference}</p>}
      {entry.corrections && entry.corrections.length > 0 && (
        <ul>
          {entry.corrections.map((correction, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: two corrections may say the same; a recorded list never reorders.
            <li key={i}>
              <code>{correction.element}</code> — {correction.action}: {correction.note}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

export function ReviewHistory({ entries }: { entries: readonly ReviewEntry[] }) {
  if (entries.length === 0) return <p className="muted">No one has reviewed this case yet.</p>;
  return (
    <ol className="review-history">
      {entries.map((entry) => (
        <li key={`${entry.at}-${entry.action}`}>
          <ReviewEntryText entry={entry} />
        </li>
      ))}
    </ol>
  );
}
