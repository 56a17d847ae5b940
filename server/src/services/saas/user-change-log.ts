// The operator's record of user changes that matter for compliance (who was given access, whose
// role changed, who was disabled or removed, and by whom), written to the server log. Facts only:
// ids, roles and statuses; never a password, its hash or an email address.
import type { UserRecord } from '../../cosmos/user-store.js';
import type { Caller } from '../call-context.js';

export type UserChangeEvent =
  | 'user_created'
  | 'user_role_changed'
  | 'user_data_access_changed'
  | 'user_disabled'
  | 'user_enabled'
  | 'user_email_changed'
  | 'user_password_set'
  | 'user_deleted';

interface Change {
  event: UserChangeEvent;
  facts?: Record<string, unknown>;
}

/** The events between two versions of a user (null before a creation, null after a deletion). */
export function userChanges(before: UserRecord | null, after: UserRecord | null, passwordSet: boolean): Change[] {
  if (!after) return before ? [{ event: 'user_deleted', facts: { role: before.role, status: before.status } }] : [];
  const changes: Change[] = before
    ? updateChanges(before, after)
    : [{ event: 'user_created', facts: { role: after.role, status: after.status, data_access_roles: after.data_access_roles } }];
  if (passwordSet) changes.push({ event: 'user_password_set' });
  return changes;
}

function updateChanges(before: UserRecord, after: UserRecord): Change[] {
  const changes: Change[] = [];
  if (before.role !== after.role) changes.push({ event: 'user_role_changed', facts: { from: before.role, to: after.role } });
  if (before.data_access_roles.join('\n') !== after.data_access_roles.join('\n')) {
    changes.push({ event: 'user_data_access_changed', facts: { from: before.data_access_roles, to: after.data_access_roles } });
  }
  if (before.status !== after.status) changes.push({ event: after.status === 'disabled' ? 'user_disabled' : 'user_enabled' });
  if (before.email !== after.email) changes.push({ event: 'user_email_changed' });
  return changes;
}

export function logUserChanges(ctx: Caller, userId: string, changes: Change[]): void {
  for (const { event, facts } of changes) {
    ctx.log.info(
      {
        compliance_event: event,
        customer_id: ctx.tenant.customerId,
        user_id: userId,
        actor: { type: ctx.principal.type, id: ctx.principal.id },
        ...facts,
      },
      `user change: ${event}`,
    );
  }
}
