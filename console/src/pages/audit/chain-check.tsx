// "Verify the chain": the SDK's check run in this browser over every event of the chosen dates, and
// its verdict in words — intact over how many events, or where the chain breaks and what was
// expected there. The checking code and its hashing load on the first click.
import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { ProblemMessage } from '../../ui/problem-message';
import { type DateRange, rangeInWords } from './trail-filters';
import type { ChainVerdict } from './verify-trail';

const genesisHash = '0'.repeat(64);

export function ChainCheck({ range }: { range: DateRange }) {
  const headingId = useId();
  const [progress, setProgress] = useState(0);
  const running = useRef<AbortController | null>(null);
  useEffect(() => () => running.current?.abort(), []);
  const check = useMutation({
    mutationFn: async (checkedRange: DateRange) => {
      running.current?.abort();
      const controller = new AbortController();
      running.current = controller;
      setProgress(0);
      const { verifyTrail } = await import('./verify-trail');
      return { range: checkedRange, verdict: await verifyTrail(checkedRange, setProgress, controller.signal) };
    },
  });
  return (
    <section aria-labelledby={headingId} className="card stack">
      <h2 id={headingId}>Verify the chain</h2>
      <p>
        Each event carries the hash of the one before it. The check fetches every event {rangeInWords(range)}, whatever the other filters,
        and recomputes each hash in this browser: a changed, removed or reordered event breaks the chain.
      </p>
      <div>
        <button type="button" className="button" onClick={() => check.mutate(range)} disabled={check.isPending}>
          {check.isPending ? 'Verifying…' : 'Verify the chain'}
        </button>
      </div>
      {check.isPending && <output>Checked {progress} events…</output>}
      {check.isError && <ProblemMessage error={check.error} />}
      {check.isSuccess && <Verdict verdict={check.data.verdict} range={check.data.range} />}
    </section>
  );
}

function Verdict({ verdict, range }: { verdict: ChainVerdict; range: DateRange }) {
  if (verdict.intact) {
    const span =
      verdict.firstSequence !== null && verdict.lastSequence !== null
        ? ` (events no. ${verdict.firstSequence} to ${verdict.lastSequence})`
        : '';
    return (
      <output className="notice chain-intact">
        The chain is intact over {verdict.checked} {verdict.checked === 1 ? 'event' : 'events'}
        {span}, {rangeInWords(range)}.
      </output>
    );
  }
  const { event, before } = verdict;
  const { problem, expected, found } = explain(verdict);
  return (
    <div role="alert" className="notice error chain-broken">
      <p>
        <strong>
          The chain breaks at event no. {event.sequence}, position {verdict.checked + 1} of the events {rangeInWords(range)}.
        </strong>{' '}
        {verdict.checked === 0 ? 'It is the first event checked.' : `The ${verdict.checked} events before it are intact.`}
      </p>
      <dl className="chain-facts">
        <dt>Event</dt>
        <dd>
          <code>{event.event_id}</code>
          {before && (
            <>
              , after <code>{before.event_id}</code> (no. {before.sequence})
            </>
          )}
        </dd>
        <dt>Problem</dt>
        <dd>{problem}</dd>
        <dt>Expected</dt>
        <dd>{expected}</dd>
        <dt>Found</dt>
        <dd>{found}</dd>
      </dl>
    </div>
  );
}

function explain(verdict: Extract<ChainVerdict, { intact: false }>) {
  const { event, before } = verdict;
  switch (verdict.reason) {
    case 'hash_mismatch':
      return {
        problem: 'Its content no longer gives its recorded hash: the event was changed after it was written.',
        expected: (
          <>
            the hash recorded with it, <code className="hash">{event.hash}</code>
          </>
        ),
        found: 'a different hash of its content',
      };
    case 'broken_link':
      return {
        problem: 'It does not link to the event before it: that event, or one before it, was changed, removed or replaced.',
        expected: (
          <>
            <code>prev_hash</code> <code className="hash">{before ? before.hash : genesisHash}</code>
            {before ? ', the hash of the event before it' : ', as the first event of the trail'}
          </>
        ),
        found: <code className="hash">{event.prev_hash}</code>,
      };
    case 'sequence_gap':
      return {
        problem: 'Events are missing before it.',
        expected: `event no. ${(before?.sequence ?? 0) + 1}`,
        found: `event no. ${event.sequence}`,
      };
    case 'out_of_order':
      return {
        problem: 'It is out of order: the events were received in another order than they were written.',
        expected: `event no. ${(before?.sequence ?? 0) + 1}`,
        found: `event no. ${event.sequence}`,
      };
  }
}
