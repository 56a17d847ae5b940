// A stored user as the contract's `User` shows it: never the password hash.

import type { User } from '@groundcheck/contract';
import type { UserRecord } from '../../cosmos/user-store.js';

export function userView(record: UserRecord): User {
  return {
    user_id: record.id,
    email: record.email,
    name: record.name,
    role: record.role,
    data_access_roles: record.data_access_roles,
    status: record.status,
    created_at: record.created_at,
    updated_at: record.updated_at,
    last_login_at: record.last_login_at,
  };
}
