// Approve or reject a case pending review: the contract asks for a note (ReviewDecisionRequest).
import type { RequestBody } from '@groundcheck/sdk';
import { useForm } from 'react-hook-form';
import { noteChars, ReviewFormFooter, TextField, textRules } from './review-fields';

type DecisionRequest = RequestBody<'ReviewDecisionRequest'>;

const wording: Record<DecisionRequest['action'], { intro: string; submit: string }> = {
  approve: { intro: 'The answer stands as checked. Say why it may go out.', submit: 'Approve' },
  reject: { intro: 'The answer must not go out as it is. Say what is wrong with it.', submit: 'Reject' },
};

export function DecisionForm(props: {
  action: DecisionRequest['action'];
  pending: boolean;
  error: unknown;
  onSubmit: (request: DecisionRequest) => void;
  onCancel: () => void;
}) {
  const { action, pending, error, onSubmit, onCancel } = props;
  const form = useForm<{ note: string }>({ defaultValues: { note: '' } });
  return (
    <form noValidate className="stack" onSubmit={form.handleSubmit(({ note }) => onSubmit({ action, note: note.trim() }))}>
      <p>{wording[action].intro}</p>
      <TextField
        label="Note"
        multiline
        required
        hint="Kept in the case's history and the audit trail."
        error={form.formState.errors.note}
        registration={form.register('note', textRules('note', noteChars, true))}
      />
      <ReviewFormFooter submitLabel={wording[action].submit} pending={pending} error={error} onCancel={onCancel} />
    </form>
  );
}
