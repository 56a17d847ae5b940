// The tenant's users: listed by email a page at a time, added and changed in a dialog, disabled or
// enabled in a click, deleted after a confirmation. The API's refusals (email_taken, last_admin) are
// shown as it words them, where the action was taken.
import type { Me, Role, User } from '@groundcheck/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { api } from '../../api/client';
import { ModalDialog } from '../../ui/modal-dialog';
import { ProblemMessage } from '../../ui/problem-message';
import { DeleteUserForm } from './delete-user-form';
import { roles, statusLabels } from './role-labels';
import type { useUsers } from './use-users';
import { UserForm } from './user-form';
import { type RowActions, roleNames, UsersTable } from './users-table';

export function UsersSection({
  me,
  users,
  roleFilter,
  onRoleFilter,
}: {
  me: Me;
  users: ReturnType<typeof useUsers>;
  roleFilter: Role | '';
  onRoleFilter: (role: Role | '') => void;
}) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<User | 'new' | null>(null);
  const [deleting, setDeleting] = useState<User | null>(null);
  const [done, setDone] = useState('');
  const toggle = useMutation({
    mutationFn: (user: User) => api.saas.users.save({ user_id: user.user_id, status: user.status === 'active' ? 'disabled' : 'active' }),
    onMutate: () => setDone(''),
    onSuccess: async (saved) => {
      setDone(`${saved.email} is now ${statusLabels[saved.status].toLowerCase()}.`);
      await queryClient.invalidateQueries({ queryKey: ['users'] });
    },
  });
  const closeEditor = () => setEditing(null);
  return (
    <section aria-labelledby={headingId} className="stack">
      <div className="page-head">
        <h2 id={headingId} ref={heading} tabIndex={-1}>
          Users
        </h2>
        <button
          type="button"
          className="button"
          onClick={() => {
            setDone('');
            setEditing('new');
          }}
        >
          Add a user
        </button>
      </div>
      <label className="inline">
        Show
        <select value={roleFilter} onChange={(event) => onRoleFilter(event.target.value as Role | '')}>
          <option value="">every role</option>
          {roles.map((role) => (
            <option key={role} value={role}>
              {roleNames[role].toLowerCase()}s only
            </option>
          ))}
        </select>
      </label>
      {done && <output className="notice">{done}</output>}
      {toggle.isError && <ProblemMessage error={toggle.error} />}
      <UsersList
        users={users}
        me={me}
        toggling={toggle.isPending}
        onToggle={(user) => toggle.mutate(user)}
        onEdit={(user) => {
          setDone('');
          setEditing(user);
        }}
        onDelete={(user) => {
          setDone('');
          setDeleting(user);
        }}
      />
      {editing !== null && (
        <ModalDialog title={editing === 'new' ? 'Add a user' : `Edit ${editing.email}`} onClose={closeEditor}>
          <UserForm
            user={editing === 'new' ? null : editing}
            withPassword={me.authentication === 'local'}
            onCancel={closeEditor}
            onSaved={(saved) => {
              setDone(editing === 'new' ? `${saved.email} was added.` : `${saved.email} was saved.`);
              closeEditor();
            }}
          />
        </ModalDialog>
      )}
      {deleting && (
        <ModalDialog title={`Delete ${deleting.email}?`} onClose={() => setDeleting(null)} fallbackFocus={heading}>
          <DeleteUserForm
            user={deleting}
            onCancel={() => setDeleting(null)}
            onDeleted={() => {
              setDone(`${deleting.email} was deleted.`);
              setDeleting(null);
            }}
          />
        </ModalDialog>
      )}
    </section>
  );
}

/** The users loaded so far, or why there are none, and the way to the next page. */
function UsersList({ users, me, ...actions }: { users: ReturnType<typeof useUsers>; me: Me } & RowActions) {
  if (users.isPending) return <p aria-busy="true">Loading the users…</p>;
  if (users.isError && !users.data) return <ProblemMessage error={users.error} />;
  const list = users.data?.pages.flatMap((page) => page.data) ?? [];
  if (list.length === 0) return <p className="notice">No user has this role.</p>;
  return (
    <>
      <UsersTable users={list} me={me} {...actions} />
      {users.hasNextPage && (
        <div>
          <button type="button" className="button secondary" onClick={() => users.fetchNextPage()} disabled={users.isFetchingNextPage}>
            {users.isFetchingNextPage ? 'Loading…' : 'Load more users'}
          </button>
        </div>
      )}
      {users.isFetchNextPageError && <ProblemMessage error={users.error} />}
    </>
  );
}
