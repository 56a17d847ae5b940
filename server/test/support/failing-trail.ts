import type { Container } from '@azure/cosmos';
import { AuditStore } from '../../src/cosmos/audit-store.js';
import { AuditTrail } from '../../src/services/audit/audit-trail.js';

/** An audit trail that fails its first `failures` appends, as a Cosmos outage between two writes would. */
export class FailingTrail extends AuditTrail {
  constructor(
    audit: Container,
    private failures: number,
  ) {
    super(new AuditStore(audit));
  }

  override async append(...args: Parameters<AuditTrail['append']>) {
    if (this.failures > 0) {
      this.failures -= 1;
      throw new Error('injected: the audit trail is unreachable');
    }
    return super.append(...args);
  }
}
