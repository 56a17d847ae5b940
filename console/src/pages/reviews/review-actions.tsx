// The review actions valid in the case's state, each a button that opens its dialog. A decision
// hands the updated record to the page; a refusal because another reviewer decided first
// (409 invalid_review_transition) is told to the page, which shows what they decided.
import { ConflictError, type RequestBody, type ReviewAction, type ValidationRecord } from '@groundcheck/sdk';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client';
import { ModalDialog } from '../../ui/modal-dialog';
import { DecisionForm } from './decision-form';
import { EditForm } from './edit-form';
import { ExternalDecisionForm } from './external-decision-form';
import { HandoffForm } from './handoff-form';

import { actionsFor } from './review-transitions';

const buttons: Record<ReviewAction, { label: string; title: string; className: string }> = {
  approve: { label: 'Approve', title: 'Approve the answer', className: 'button' },
  reject: { label: 'Reject', title: 'Reject the answer', className: 'button danger' },
  edit: { label: 'Edit', title: 'Correct the answer', className: 'button secondary' },
  handoff: { label: 'Hand off', title: 'Hand off to an external review', className: 'button secondary' },
  external_approve: { label: 'Record external approval', title: 'Record the external approval', className: 'button' },
  external_reject: { label: 'Record external rejection', title: 'Record the external rejection', className: 'button danger' },
};

export const isLostRace = (error: unknown) => error instanceof ConflictError && error.code === 'invalid_review_transition';

export function ReviewActions(props: { record: ValidationRecord; onReviewed: (record: ValidationRecord) => void; onLostRace: () => void }) {
  const { record, onReviewed, onLostRace } = props;
  const [open, setOpen] = useState<ReviewAction | null>(null);
  const review = useMutation({
    mutationFn: async (request: RequestBody<'ReviewRequest'>) => await api.history.review(record.validation_id, request),
  });
  const actions = actionsFor(record.review.state);
  if (actions.length === 0) return null;
  const start = (action: ReviewAction) => {
    review.reset();
    setOpen(action);
  };
  const submit = (request: RequestBody<'ReviewRequest'>) =>
    review.mutate(request, {
      onSuccess: (updated) => {
        setOpen(null);
        onReviewed(updated);
      },
      onError: (error) => {
        if (!isLostRace(error)) return;
        setOpen(null);
        onLostRace();
      },
    });
  const formProps = { pending: review.isPending, error: review.error, onSubmit: submit, onCancel: () => setOpen(null) };
  const handoffReference = record.review.history.findLast((entry) => entry.action === 'handoff')?.external_reference ?? '';
  return (
    <div className="row review-actions">
      {actions.map((action) => (
        <button key={action} type="button" className={buttons[action].className} onClick={() => start(action)}>
          {buttons[action].label}
        </button>
      ))}
      {open && (
        <ModalDialog title={buttons[open].title} onClose={() => setOpen(null)}>
          {(open === 'approve' || open === 'reject') && <DecisionForm action={open} {...formProps} />}
          {open === 'edit' && <EditForm record={record} {...formProps} />}
          {open === 'handoff' && <HandoffForm {...formProps} />}
          {(open === 'external_approve' || open === 'external_reject') && (
            <ExternalDecisionForm action={open} handoffReference={handoffReference} {...formProps} />
          )}
        </ModalDialog>
      )}
    </div>
  );
}
