// The roles in words, typed by the contract's enum (a new role is a compile error until it has words).
import type { Role, UserStatus } from '@groundcheck/sdk';

export const roleLabels: Record<Role, string> = {
  viewer: 'Viewer: reads the history, the sources and the statistics',
  user: 'User: also checks answers and reviews them',
  admin: 'Admin: also manages sources, templates, users, the audit trail and the account',
};

export const roles = Object.keys(roleLabels) as Role[];

export const statusLabels: Record<UserStatus, string> = { active: 'Active', disabled: 'Disabled' };
