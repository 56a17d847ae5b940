// Who sees which validation records. A record holds what the engine found in its sources (issues,
// findings, the answer's first 500 characters), so it is shown under the same rule as the sources
// themselves (decision row 28): admins see every record of the tenant, as they manage the groups;
// anyone else sees their own records and those whose source groups they may all use. A record
// grounded on a group that is deleted since is shown to its author and to admins only.

import type { HistoryItem } from '../../cosmos/history-store.js';
import type { SourceGroupStore } from '../../cosmos/source-group-store.js';
import type { Principal } from '../auth/principal.js';
import { canUseGroup } from '../sources/source-access.js';

/** Null for the whole tenant; otherwise who the caller is and the groups they may use. */
export type HistoryVisibility = { principalId: string; usableGroups: string[] } | null;

export async function visibilityOf(principal: Principal, groups: SourceGroupStore): Promise<HistoryVisibility> {
  if (principal.role === 'admin') return null;
  const usable = (await groups.list(principal.tenant.customerId)).filter((group) => canUseGroup(principal, group));
  return { principalId: principal.id, usableGroups: usable.map((group) => group.id) };
}

export function canSee(visibility: HistoryVisibility, item: HistoryItem): boolean {
  if (!visibility || item.user.id === visibility.principalId) return true;
  return item.source_groups.every((group) => visibility.usableGroups.includes(group));
}
