// Hand a case pending review to an external review system: the contract asks for the case's
// reference there; a note is optional (ReviewHandoffRequest).
import type { RequestBody } from '@groundcheck/sdk';
import { useForm } from 'react-hook-form';
import { noteChars, ReviewFormFooter, referenceChars, TextField, textRules } from './review-fields';

export function HandoffForm(props: {
  pending: boolean;
  error: unknown;
  onSubmit: (request: RequestBody<'ReviewHandoffRequest'>) => void;
  onCancel: () => void;
}) {
  const { pending, error, onSubmit, onCancel } = props;
  const form = useForm<{ reference: string; note: string }>({ defaultValues: { reference: '', note: '' } });
  const { errors } = form.formState;
  const submit = form.handleSubmit(({ reference, note }) =>
    onSubmit({ action: 'handoff', external_reference: reference.trim(), ...(note.trim() ? { note: note.trim() } : {}) }),
  );
  return (
    <form noValidate className="stack" onSubmit={submit}>
      <p>The external system decides; its decision is recorded on this case when it comes back.</p>
      <TextField
        label="External reference"
        required
        hint="The case's id in the external review system, for example SNOW-CHG0042137."
        error={errors.reference}
        registration={form.register('reference', textRules('external reference', referenceChars, true))}
      />
      <TextField
        label="Note"
        multiline
        required={false}
        error={errors.note}
        registration={form.register('note', textRules('note', noteChars, false))}
      />
      <ReviewFormFooter submitLabel="Hand off" pending={pending} error={error} onCancel={onCancel} />
    </form>
  );
}
