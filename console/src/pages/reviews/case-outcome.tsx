// What became of the reviewer's action: their decision, or, when someone else decided first, that
// plainly and what the other reviewer decided (read again from the record).
import type { ReviewEntry } from '@groundcheck/sdk';
import { ReviewEntryText } from './review-history';
import { actionWords, stateWords } from './review-words';

export type Outcome = { kind: 'decided' } | { kind: 'lost_race' };

export function CaseOutcome({ outcome, latest, refreshing }: { outcome: Outcome; latest: ReviewEntry | undefined; refreshing: boolean }) {
  if (outcome.kind === 'decided')
    return (
      <output className="notice decided">
        Saved:{' '}
        {latest ? `${actionWords[latest.action]}. The case is now ${stateWords[latest.to_state].toLowerCase()}.` : 'the case is updated.'}
      </output>
    );
  return (
    <div role="alert" className="notice error">
      <p>
        <strong>Someone else decided this case first.</strong> Your action was not applied.
      </p>
      {refreshing || !latest ? <p aria-busy="true">Reading their decision…</p> : <ReviewEntryText entry={latest} />}
    </div>
  );
}
