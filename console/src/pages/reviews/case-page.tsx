// One case (viewer and above): the validation with its claims and evidence, its review history, and
// for users and admins the review actions its state allows.

import type { Me, ValidationRecord } from '@groundcheck/sdk';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation, useOutletContext, useParams } from 'react-router';
import { hasRole } from '../../api/me';
import { Page } from '../../ui/page';
import { ProblemMessage } from '../../ui/problem-message';
import { CaseAnswer } from './case-answer';
import { CaseOutcome, type Outcome } from './case-outcome';
import { caseKey, useCaseRecord } from './case-record';
import { CaseSummary } from './case-summary';
import { ReviewActions } from './review-actions';
import { ReviewHistory } from './review-history';

export function CasePage() {
  const { validationId } = useParams();
  // A new case is a new screen: nothing of the last one's outcome carries over.
  return <CaseScreen key={validationId} validationId={validationId!} />;
}

function CaseScreen({ validationId }: { validationId: string }) {
  const me = useOutletContext<Me>();
  const location = useLocation();
  const queryClient = useQueryClient();
  const record = useCaseRecord(validationId);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const outcomeRef = useRef<HTMLDivElement>(null);
  const answerId = useId();
  const historyId = useId();
  useEffect(() => {
    if (outcome) outcomeRef.current?.focus();
  }, [outcome]);
  // The queue's filters, when the person came from it, so that going back keeps them.
  const queueSearch = (location.state as { queue?: string } | null)?.queue ?? '';
  const reviewed = (updated: ValidationRecord) => {
    queryClient.setQueryData(caseKey(validationId), updated);
    void queryClient.invalidateQueries({ queryKey: ['history'] });
    setOutcome({ kind: 'decided' });
  };
  const lostRace = () => {
    void queryClient.invalidateQueries({ queryKey: caseKey(validationId) });
    void queryClient.invalidateQueries({ queryKey: ['history'] });
    setOutcome({ kind: 'lost_race' });
  };
  const data = record.data;
  const canAct = hasRole(me.role, 'user');
  return (
    <Page
      title="Review case"
      actions={data && canAct ? <ReviewActions record={data} onReviewed={reviewed} onLostRace={lostRace} /> : undefined}
    >
      <div className="stack">
        <p>
          <Link to={{ pathname: '/reviews', search: queueSearch }}>Back to the reviews</Link>
        </p>
        <div ref={outcomeRef} tabIndex={-1} className="case-outcome">
          {outcome && <CaseOutcome outcome={outcome} latest={data?.review.history.at(-1)} refreshing={record.isFetching} />}
        </div>
        {record.isError ? (
          <ProblemMessage error={record.error} />
        ) : data === undefined ? (
          <p aria-busy="true">Loading the case…</p>
        ) : data === null ? (
          <p className="notice">No validation with this id: it does not exist, has expired, or is not yours to see.</p>
        ) : (
          <>
            <CaseSummary record={data} />
            {!canAct && <p className="muted">You can read this case; reviewing it needs the user or admin role.</p>}
            <section aria-labelledby={answerId} className="stack">
              <h2 id={answerId}>Answer</h2>
              <CaseAnswer record={data} />
            </section>
            <section aria-labelledby={historyId} className="stack">
              <h2 id={historyId}>Review history</h2>
              <ReviewHistory entries={data.review.history} />
            </section>
          </>
        )}
      </div>
    </Page>
  );
}
