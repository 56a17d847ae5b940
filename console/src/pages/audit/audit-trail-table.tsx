// The trail as the filters select it, oldest first, one page at a time from the API's cursors.
import type { AuditEvent } from '@groundcheck/sdk';
import { format, parseISO } from 'date-fns';
import { useRef } from 'react';
import { Link } from 'react-router';
import { ProblemMessage } from '../../ui/problem-message';
import { EventFacts } from './event-facts';
import { kindLabels } from './kind-labels';
import type { useAuditTrail } from './use-audit-trail';

export function AuditTrailTable({ trail }: { trail: ReturnType<typeof useAuditTrail> }) {
  // Set while "Load more" fetches what may be the last page: the words that replace the button then take focus.
  const focusEnd = useRef(false);
  if (trail.isPending) return <p aria-busy="true">Loading the trail…</p>;
  if (trail.isError && !trail.data) return <ProblemMessage error={trail.error} />;
  const events = trail.data?.pages.flatMap((page) => page.data) ?? [];
  const loadMore = async () => {
    focusEnd.current = true;
    const next = await trail.fetchNextPage();
    if (next.hasNextPage) focusEnd.current = false;
  };
  if (events.length === 0) return <p className="notice">No event matches these filters.</p>;
  return (
    <>
      <div className="table-wrap">
        <table className="audit-trail">
          <caption className="muted">Oldest first. Times are shown in your time zone; the date filters are UTC days.</caption>
          <thead>
            <tr>
              <th scope="col">No.</th>
              <th scope="col">When</th>
              <th scope="col">Event</th>
              <th scope="col">Actor</th>
              <th scope="col">Validation</th>
              <th scope="col">Facts</th>
            </tr>
          </thead>
          <tbody>
            {events.map((event) => (
              <EventRow key={event.event_id} event={event} />
            ))}
          </tbody>
        </table>
      </div>
      <div className="row trail-more">
        <output aria-live="polite">{events.length === 1 ? 'Showing 1 event.' : `Showing ${events.length} events.`}</output>
        {trail.hasNextPage ? (
          <button type="button" className="button secondary" onClick={loadMore} disabled={trail.isFetchingNextPage}>
            {trail.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </button>
        ) : (
          <p
            ref={(element) => {
              // The button goes away with the last page: focus moves to the words that say so, not to the page's top.
              if (element && focusEnd.current) {
                element.focus();
                focusEnd.current = false;
              }
            }}
            tabIndex={-1}
            className="muted"
          >
            That is every matching event.
          </p>
        )}
      </div>
      {trail.isFetchNextPageError && <ProblemMessage error={trail.error} />}
    </>
  );
}

function EventRow({ event }: { event: AuditEvent }) {
  return (
    <tr>
      <td>{event.sequence}</td>
      <td>
        <time dateTime={event.occurred_at}>{format(parseISO(event.occurred_at), 'd MMM yyyy, HH:mm:ss')}</time>
      </td>
      <td>{kindLabels[event.kind]}</td>
      <td>
        {event.actor.name && <span className="actor-line">{event.actor.name}</span>}
        {/* The id filters the trail to this actor: the way to the actor filter without copying ids. */}
        <Link to={{ search: `?actor=${encodeURIComponent(event.actor.id)}` }} className="actor-detail">
          <code>{event.actor.id}</code>
        </Link>
        <span className="muted actor-detail">
          {event.actor.type.replace('_', ' ')} · {event.actor.role}
        </span>
      </td>
      <td>{event.validation_id ? <Link to={`/reviews/${event.validation_id}`}>{event.validation_id}</Link> : '—'}</td>
      <td>
        <EventFacts event={event} />
      </td>
    </tr>
  );
}
