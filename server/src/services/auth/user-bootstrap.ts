// Creates the users the tenant file lists, once: an existing email is left as it is.

import { EmailTakenError, type UserStore } from '../../cosmos/user-store.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { Logger } from '../../logger.js';
import type { Tenant } from '../../tenants/tenant.js';

export async function bootstrapUsers(tenants: Tenant[], users: UserStore, clock: Clock, log: Logger): Promise<void> {
  for (const tenant of tenants) {
    for (const user of tenant.auth.local?.users ?? []) {
      if (await users.findByEmail(tenant.customerId, user.email)) continue;
      const now = clock.now();
      try {
        await users.create({
          id: newId('usr', now.getTime()),
          customer_id: tenant.customerId,
          kind: 'user',
          email: user.email,
          name: user.name,
          role: user.role,
          data_access_roles: user.dataAccessRoles,
          status: 'active',
          password_hash: user.passwordHash,
          created_at: now.toISOString(),
          updated_at: now.toISOString(),
          last_login_at: null,
        });
        log.info({ customer_id: tenant.customerId, role: user.role }, 'created user from the tenant file');
      } catch (error) {
        // Another server process created it first.
        if (!(error instanceof EmailTakenError)) throw error;
      }
    }
  }
}
