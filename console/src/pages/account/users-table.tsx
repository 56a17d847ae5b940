// The users as a table, each row with its actions; each action's name says whose it is.
import type { Me, Role, User } from '@groundcheck/sdk';
import { format, parseISO } from 'date-fns';
import { statusLabels } from './role-labels';

export const roleNames: Record<Role, string> = { viewer: 'Viewer', user: 'User', admin: 'Admin' };

export interface RowActions {
  onEdit: (user: User) => void;
  onToggle: (user: User) => void;
  onDelete: (user: User) => void;
  /** A status change is under way: another waits for it. */
  toggling: boolean;
}

export function UsersTable({ users, me, ...actions }: { users: User[]; me: Me } & RowActions) {
  return (
    <div className="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Status</th>
            <th scope="col">Last sign-in</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <UserRow key={user.user_id} user={user} isMe={user.user_id === me.principal.id} {...actions} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function UserRow({ user, isMe, onEdit, onToggle, onDelete, toggling }: { user: User; isMe: boolean } & RowActions) {
  const whose = <span className="visually-hidden"> {user.email}</span>;
  return (
    <tr>
      <td>
        {user.name}
        {isMe && <span className="muted"> (you)</span>}
      </td>
      <td>{user.email}</td>
      <td>{roleNames[user.role]}</td>
      <td>
        <span className={`user-status ${user.status}`}>{statusLabels[user.status]}</span>
      </td>
      <td>
        {user.last_login_at ? (
          <time dateTime={user.last_login_at}>{format(parseISO(user.last_login_at), 'd MMM yyyy, HH:mm')}</time>
        ) : (
          <span className="muted">Never</span>
        )}
      </td>
      <td>
        <div className="row actions">
          <button type="button" className="button secondary" onClick={() => onEdit(user)}>
            Edit{whose}
          </button>
          <button type="button" className="button secondary" disabled={toggling} onClick={() => onToggle(user)}>
            {user.status === 'active' ? 'Disable' : 'Enable'}
            {whose}
          </button>
          <button type="button" className="button danger" onClick={() => onDelete(user)}>
            Delete{whose}
          </button>
        </div>
      </td>
    </tr>
  );
}
