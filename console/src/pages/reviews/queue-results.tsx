// The cases the filters match, a page at a time. The API pages forward only (a cursor per next
// page), so the cursors that led to this page are kept here: Previous goes back along them.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client';
import { ProblemMessage } from '../../ui/problem-message';
import { historyQuery, type QueueFilters } from './queue-filters';
import { QueueTable } from './queue-table';

export function QueueResults({ filters }: { filters: QueueFilters }) {
  // The cursor of each page after the first, up to the one shown.
  const [cursors, setCursors] = useState<string[]>([]);
  const query = historyQuery(filters, cursors.at(-1));
  const page = useQuery({
    queryKey: ['history', query],
    queryFn: async () => await api.history.list(query),
    placeholderData: keepPreviousData,
  });
  if (page.isError) return <ProblemMessage error={page.error} />;
  if (!page.data) return <p aria-busy="true">Loading cases…</p>;
  const records = page.data.data;
  const pageNumber = cursors.length + 1;
  const nextCursor = page.data.next_cursor;
  return (
    <section aria-label="Cases" aria-busy={page.isFetching} className="stack">
      {records.length === 0 ? (
        <p className="notice">{pageNumber === 1 ? 'No case matches these filters.' : 'No more cases.'}</p>
      ) : (
        <QueueTable records={records} caption={`Cases, page ${pageNumber}`} />
      )}
      <nav aria-label="Pages of cases" className="row pager">
        <button
          type="button"
          className="button secondary"
          disabled={cursors.length === 0 || page.isFetching}
          onClick={() => setCursors(cursors.slice(0, -1))}
        >
          Previous page
        </button>
        <output aria-live="polite">Page {pageNumber}</output>
        <button
          type="button"
          className="button secondary"
          disabled={!page.data.has_more || nextCursor === null || page.isFetching}
          onClick={() => nextCursor && setCursors([...cursors, nextCursor])}
        >
          Next page
        </button>
      </nav>
    </section>
  );
}
