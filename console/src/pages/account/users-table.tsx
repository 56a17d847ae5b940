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
      <table className="users-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col" className="wide-only">
              Email
            </th>
            <th scope="col" className="wide-only">
              Role
            </th>
            <th scope="col" className="wide-only">
              Status
            </th>
            <th scope="col" className="wide-only">
              Last sign-in
            </th>
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
  const status = <span className={`user-status ${user.status}`}>{statusLabels[user.status]}</span>;
  const lastSignIn = user.last_login_at ? (
    <time dateTime={user.last_login_at}>{format(parseISO(user.last_login_at), 'd MMM yyyy, HH:mm')}</time>
  ) : (
    <span className="muted">Never</span>
  );
  return (
    <tr>
      <td>
        {user.name}
        {isMe && <span className="muted"> (you)</span>}
        {/* A phone has no room for the other columns: the same facts under the name. */}
        <div className="phone-only user-meta">
          <div>{user.email}</div>
          <div>
            {roleNames[user.role]} · {status}
          </div>
          <div>Last sign-in: {lastSignIn}</div>
        </div>
      </td>
      <td className="wide-only">{user.email}</td>
      <td className="wide-only">{roleNames[user.role]}</td>
      <td className="wide-only">{status}</td>
      <td className="wide-only">{lastSignIn}</td>
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
