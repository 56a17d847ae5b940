// Calibration mode `apply` (decision S113): the server fits the tenant's operating point by itself, at start and
// every 5 minutes for every tenant, and after review decisions of a tenant in mode `apply`; each time it fits only
// when the tenant's usable decisions grew by `refit_every` since the last fit (OperatingPoints.refitIfDue). Several
// processes may do this at once: the tenant's document is written under its ETag, so one of them applies a change.
import type { Logger } from '../../logger.js';
import type { Tenant } from '../../tenants/tenant.js';
import { PeriodicPass } from '../periodic-pass.js';
import type { OperatingPoints } from './operating-points.js';

const intervalMs = 5 * 60_000;

export class OperatingPointPass extends PeriodicPass {
  /** The check under way for a tenant after a decision, and whether another decision asked for one more after it. */
  private readonly checks = new Map<string, { run: Promise<void>; again: boolean }>();

  constructor(
    private readonly points: OperatingPoints,
    private readonly tenants: readonly Tenant[],
    private readonly log: Logger,
  ) {
    super(intervalMs);
  }

  /** A review of the tenant was decided: in mode `apply`, see whether a fit is due (one check at a time per tenant). */
  decided(tenant: Tenant): void {
    if (tenant.calibration.mode !== 'apply') return;
    const under = this.checks.get(tenant.customerId);
    if (under) {
      under.again = true;
      return;
    }
    const check = { run: Promise.resolve(), again: true };
    this.checks.set(tenant.customerId, check);
    check.run = (async () => {
      while (check.again) {
        check.again = false;
        await this.refit(tenant);
      }
      this.checks.delete(tenant.customerId);
    })();
  }

  /** Resolves when the pass under way and the checks after decisions have finished. */
  override async settled(): Promise<void> {
    await Promise.all([super.settled(), ...[...this.checks.values()].map((check) => check.run)]);
  }

  override async stop(): Promise<void> {
    await Promise.all([super.stop(), ...[...this.checks.values()].map((check) => check.run)]);
  }

  protected async pass(): Promise<void> {
    for (const tenant of this.tenants) await this.refit(tenant);
  }

  private async refit(tenant: Tenant): Promise<void> {
    try {
      await this.points.refitIfDue(tenant);
    } catch (error) {
      this.log.warn({ err: error, customer_id: tenant.customerId }, 'fitting the operating point failed; it is tried again later');
    }
  }
}
