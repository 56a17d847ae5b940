// Completes history records whose audit events (of the validation, or of a review) were not all
// written (a process that died, an audit write that failed): once at start and then every minute.
// Outboxes that changed within the grace period are left to the request that is still writing them.
import type { Clock } from '../../lib/clock.js';
import type { Logger } from '../../logger.js';
import type { Tenant } from '../../tenants/tenant.js';
import { PeriodicPass } from '../periodic-pass.js';
import type { ValidationRecorder } from './validation-recorder.js';

const intervalMs = 60_000;
const graceMs = 30_000;

export class OutboxRecovery extends PeriodicPass {
  constructor(
    private readonly recorder: ValidationRecorder,
    private readonly tenants: readonly Tenant[],
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {
    super(intervalMs);
  }

  protected async pass(): Promise<void> {
    const before = new Date(this.clock.now().getTime() - graceMs);
    for (const tenant of this.tenants) {
      try {
        const completed = await this.recorder.recover(tenant, before);
        if (completed > 0)
          this.log.info({ customer_id: tenant.customerId, completed }, 'completed the audit events of interrupted validations');
      } catch (error) {
        this.log.warn({ err: error, customer_id: tenant.customerId }, 'validation recovery failed; it runs again in a minute');
      }
    }
  }
}
