// What an event records, in a line: the facts its kind carries (sizes and references for a
// validation, the note and corrections for a review), never more than the trail itself holds.
import type { AuditEvent } from '@groundcheck/sdk';

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

export function EventFacts({ event }: { event: AuditEvent }) {
  switch (event.kind) {
    case 'validation_created': {
      const { data } = event;
      return (
        <>
          {data.mode} · confidence {data.confidence_level} · {plural(data.issue_count, 'issue', 'issues')} ·{' '}
          {plural(data.sources.length + data.source_groups.length, 'source', 'sources')}
        </>
      );
    }
    case 'review_required':
      return <>Review state: {event.data.review_state.replaceAll('_', ' ')}</>;
    case 'approved':
    case 'rejected':
      return <Note text={event.data.note} />;
    case 'edited':
      return (
        <>
          {plural(event.data.corrections.length, 'correction', 'corrections')}
          {event.data.note && (
            <>
              {' · '}
              <Note text={event.data.note} />
            </>
          )}
        </>
      );
    case 'review_handed_off':
    case 'external_review_approved':
    case 'external_review_rejected':
      return (
        <>
          Reference <code>{event.data.external_reference}</code>
          {event.data.note && (
            <>
              {' · '}
              <Note text={event.data.note} />
            </>
          )}
        </>
      );
    case 'account_deleted':
      return <span className="muted">No facts: the last event of the trail.</span>;
  }
}

function Note({ text }: { text: string }) {
  return text ? <q>{text}</q> : <span className="muted">No note</span>;
}
