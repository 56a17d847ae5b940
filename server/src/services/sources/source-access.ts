// Who may use a source group (decision 28, section 4.2 rule 3): admins every group; other callers a
// group without `allowed_roles` or one that names at least one of their data-access roles.

import type { SourceGroupRecord } from '../../cosmos/source-group-store.js';
import type { Principal } from '../auth/principal.js';

/** For the list: admins see every group, as they manage them. */
export function canSeeGroup(principal: Principal, group: Pick<SourceGroupRecord, 'allowed_roles'>): boolean {
  return principal.role === 'admin' || canUseGroup(principal, group);
}

/**
 * For retrieval: the group's own rule, whatever the caller's role, so an admin who lacks a
 * restricted group's data-access role does not ground answers on it either.
 */
export function canUseGroup(principal: Principal, group: Pick<SourceGroupRecord, 'allowed_roles'>): boolean {
  if (group.allowed_roles.length === 0) return true;
  return group.allowed_roles.some((role) => principal.dataAccessRoles.includes(role));
}
