// The confirmation before a user is deleted, with what deleting does and does not remove.
import type { User } from '@groundcheck/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { ProblemMessage } from '../../ui/problem-message';

export function DeleteUserForm({ user, onDeleted, onCancel }: { user: User; onDeleted: () => void; onCancel: () => void }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => api.saas.users.delete({ user_id: user.user_id }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['users'] });
      onDeleted();
    },
  });
  return (
    <form
      className="stack"
      onSubmit={(event) => {
        event.preventDefault();
        remove.mutate();
      }}
    >
      <p>
        {user.name} ({user.email}) will no longer be able to sign in. Their past validations and audit events keep their user id.
      </p>
      {remove.isError && <ProblemMessage error={remove.error} />}
      <div className="row">
        <button type="submit" className="button danger" disabled={remove.isPending}>
          {remove.isPending ? 'Deleting…' : 'Delete the user'}
        </button>
        <button type="button" className="button secondary" onClick={onCancel} data-initial-focus>
          Cancel
        </button>
      </div>
    </form>
  );
}
