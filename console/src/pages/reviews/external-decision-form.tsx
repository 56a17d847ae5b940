// Record the external system's decision on a handed-off case (ExternalReviewDecisionRequest): the
// contract requires nothing more; the reference defaults to the one the case was handed off with.
import type { RequestBody } from '@groundcheck/sdk';
import { useForm } from 'react-hook-form';
import { noteChars, ReviewFormFooter, referenceChars, TextField, textRules } from './review-fields';

type ExternalRequest = RequestBody<'ExternalReviewDecisionRequest'>;

export function ExternalDecisionForm(props: {
  action: ExternalRequest['action'];
  handoffReference: string;
  pending: boolean;
  error: unknown;
  onSubmit: (request: ExternalRequest) => void;
  onCancel: () => void;
}) {
  const { action, handoffReference, pending, error, onSubmit, onCancel } = props;
  const form = useForm<{ reference: string; note: string }>({ defaultValues: { reference: handoffReference, note: '' } });
  const { errors } = form.formState;
  const submit = form.handleSubmit(({ reference, note }) =>
    onSubmit({
      action,
      ...(reference.trim() ? { external_reference: reference.trim() } : {}),
      ...(note.trim() ? { note: note.trim() } : {}),
    }),
  );
  return (
    <form noValidate className="stack" onSubmit={submit}>
      <TextField
        label="External reference"
        required={false}
        error={errors.reference}
        registration={form.register('reference', textRules('external reference', referenceChars, false))}
      />
      <TextField
        label="Note"
        multiline
        required={false}
        error={errors.note}
        registration={form.register('note', textRules('note', noteChars, false))}
      />
      <ReviewFormFooter
        submitLabel={action === 'external_approve' ? 'Record the approval' : 'Record the rejection'}
        pending={pending}
        error={error}
        onCancel={onCancel}
      />
    </form>
  );
}
