// Closing the account: what goes and what stays, then a dialog where the person types the exact
// confirmation the API requires (`DELETE <customer_id>`); the button waits for it. Once the API has
// deleted the account, the dialog says so, and leaving it in any way ends the session (the token no
// longer works) and opens sign-in.
import type { DeletedAccount, Me } from '@groundcheck/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { format, parseISO } from 'date-fns';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { api } from '../../api/client';
import { sessionStore } from '../../session/session-store';
import { ModalDialog } from '../../ui/modal-dialog';
import { ProblemMessage } from '../../ui/problem-message';

export function AccountDeletionSection({ me }: { me: Me }) {
  const headingId = useId();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [deleted, setDeleted] = useState<DeletedAccount | null>(null);
  const close = () => {
    setConfirming(false);
    if (deleted) {
      queryClient.clear();
      sessionStore.end('account-deleted');
    }
  };
  return (
    <section aria-labelledby={headingId} className="card stack danger-zone">
      <h2 id={headingId}>Delete the account</h2>
      <p>
        Deletes all of {me.customer.name}'s data: users, source groups and their files, templates and the history. Nobody can sign in to it
        afterwards. The audit trail is kept until its retention ends, as the trail requires. This cannot be undone: download the export
        first to keep a copy.
      </p>
      <div>
        <button type="button" className="button danger" onClick={() => setConfirming(true)}>
          Delete the account…
        </button>
      </div>
      {confirming && (
        <ModalDialog title={deleted ? 'The account is deleted' : 'Delete the account?'} onClose={close}>
          {deleted ? (
            <>
              <output className="notice">
                The account {deleted.customer_id} was deleted on {format(parseISO(deleted.deleted_at), 'd MMM yyyy, HH:mm')}. Its users can
                no longer sign in; its audit trail is kept until its retention ends.
              </output>
              <div>
                {/* biome-ignore lint/a11y/noAutofocus: the button replaces the focused one in an open dialog */}
                <button type="button" className="button" onClick={close} autoFocus>
                  Go to sign-in
                </button>
              </div>
            </>
          ) : (
            <ConfirmDeletion customerId={me.customer.customer_id} onDeleted={setDeleted} onCancel={close} />
          )}
        </ModalDialog>
      )}
    </section>
  );
}

function ConfirmDeletion({
  customerId,
  onDeleted,
  onCancel,
}: {
  customerId: string;
  onDeleted: (deleted: DeletedAccount) => void;
  onCancel: () => void;
}) {
  const hintId = useId();
  const expected = `DELETE ${customerId}`;
  const form = useForm<{ confirmation: string }>({ defaultValues: { confirmation: '' } });
  const matches = form.watch('confirmation') === expected;
  const remove = useMutation({
    mutationFn: (confirmation: string) => api.account.delete({ confirmation }),
    onSuccess: onDeleted,
  });
  return (
    <form className="stack" noValidate onSubmit={form.handleSubmit(({ confirmation }) => remove.mutate(confirmation))}>
      <p id={hintId}>
        To confirm, type <strong className="confirmation-text">{expected}</strong> exactly.
      </p>
      <label>
        Confirmation
        <input autoComplete="off" spellCheck={false} aria-describedby={hintId} {...form.register('confirmation')} />
      </label>
      {remove.isError && <ProblemMessage error={remove.error} />}
      <div className="row">
        <button type="submit" className="button danger" disabled={!matches || remove.isPending}>
          {remove.isPending ? 'Deleting…' : 'Delete the account'}
        </button>
        <button type="button" className="button secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
