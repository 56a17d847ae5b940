// Completes account deletions that were cut short (a failure, a process that died): at start and
// then every minute, any tenant whose deletion marker still says `deleting` and has not moved for
// a while is deleted again from where it is. A deletion that is moving is left to its process.
// A deleted tenant is swept once more a while after, for what requests admitted just before the
// marker wrote while the deletion ran.

import type { TenantStateStore } from '../../cosmos/tenant-state-store.js';
import type { Clock } from '../../lib/clock.js';
import type { Logger } from '../../logger.js';
import type { Tenant } from '../../tenants/tenant.js';
import { PeriodicPass } from '../periodic-pass.js';
import type { AccountDeletion } from './account-deletion.js';

const intervalMs = 60_000;
/** Longer than the time between two heartbeats of a deletion that is moving, and than any request runs. */
export const stalledAfterMs = 5 * 60_000;

export class DeletionRecovery extends PeriodicPass {
  constructor(
    private readonly deletion: AccountDeletion,
    private readonly state: TenantStateStore,
    private readonly tenants: readonly Tenant[],
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {
    super(intervalMs);
  }

  protected async pass(): Promise<void> {
    const stalledBefore = this.clock.now().getTime() - stalledAfterMs;
    for (const tenant of this.tenants) {
      try {
        const marker = await this.state.deletionMarker(tenant.customerId);
        if (!marker || Date.parse(marker.heartbeat_at) > stalledBefore) continue;
        if (marker.state === 'deleting') {
          this.log.warn({ customer_id: tenant.customerId }, 'completing an account deletion that was cut short');
          await this.deletion.complete(tenant, marker);
        } else if (!marker.swept_at) {
          await this.deletion.sweep(tenant, marker);
        }
      } catch (error) {
        this.log.error({ err: error, customer_id: tenant.customerId }, 'account deletion recovery failed; it runs again in a minute');
      }
    }
  }
}
