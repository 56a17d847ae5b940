import { callerOf } from '../services/call-context.js';
import type { BillingPortalService } from '../services/saas/billing-portal.js';
import type { UserManagement } from '../services/saas/user-management.js';
import type { OperationTable } from './operation.js';

export interface SaasServices {
  users: UserManagement;
  billing: BillingPortalService;
}

export function saasOperations({ users, billing }: SaasServices) {
  return {
    listUsers: async (body, ctx) => users.list(callerOf(ctx), body),
    saveUser: async (body, ctx) => users.save(callerOf(ctx), body),
    deleteUser: async (body, ctx) => users.delete(callerOf(ctx), body.user_id),
    getBillingPortal: async (body, ctx) => billing.open(callerOf(ctx), body),
  } satisfies OperationTable;
}
