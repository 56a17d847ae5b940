// POST /api/v1/account/delete (section 4.7, decision row 38): after the confirmation
// `DELETE <customer_id>`, a deletion marker closes the account (its logins, tokens and API keys
// are refused from then on), then every item of the tenant's partition in every container but the
// audit trail is deleted page by page, then its stored files, and a last audit event records the
// termination. Each step can run again, so a deletion cut short is completed by DeletionRecovery.

import type { AccountDeleteRequest, DeletedAccount } from '@groundcheck/contract';
import type { ObjectStorage } from '../../blobs/index.js';
import type { AuditStore } from '../../cosmos/audit-store.js';
import type { CosmosStore } from '../../cosmos/cosmos.js';
import { purgedContainers, purgePartition } from '../../cosmos/partition-purge.js';
import type { DeletionMarker, TenantStateStore } from '../../cosmos/tenant-state-store.js';
import { BadRequestError, InternalError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { Logger } from '../../logger.js';
import type { Tenant } from '../../tenants/tenant.js';
import { type AuditTrail, actorOf } from '../audit/audit-trail.js';
import type { Caller } from '../call-context.js';

/** Pages between two heartbeats of the marker: recovery leaves a deletion alone while it moves. */
const pagesPerHeartbeat = 20;

export interface AccountDeletionOptions {
  cosmos: CosmosStore;
  storage: ObjectStorage;
  state: TenantStateStore;
  trail: AuditTrail;
  audit: AuditStore;
  clock: Clock;
  log: Logger;
}

export class AccountDeletion {
  /** Deletions of one tenant run one after another in this process (a request and recovery, say). */
  private readonly running = new Map<string, Promise<DeletionMarker>>();

  constructor(private readonly deps: AccountDeletionOptions) {}

  async delete(ctx: Caller, request: AccountDeleteRequest): Promise<DeletedAccount> {
    const { customerId } = ctx.tenant;
    const expected = `DELETE ${customerId}`;
    if (request.confirmation !== expected) {
      throw new BadRequestError('confirmation_mismatch', 'The confirmation does not match; nothing was deleted.', [
        { pointer: '/confirmation', detail: `must be exactly "${expected}"` },
      ]);
    }
    const marker = await this.deps.state.markForDeletion(customerId, actorOf(ctx.principal), ctx.clock.now());
    const actor = { type: marker.requested_by.type, id: marker.requested_by.id };
    ctx.log.warn({ compliance_event: 'account_deletion_started', customer_id: customerId, actor }, 'account deletion started');
    try {
      const done = await this.complete(ctx.tenant, marker);
      return { customer_id: customerId, deleted: true, deleted_at: done.deleted_at! };
    } catch (error) {
      ctx.log.error({ err: error, customer_id: customerId }, 'account deletion interrupted; recovery completes it');
      throw new InternalError(
        'internal_error',
        'The account is closed, but deleting its data was interrupted; the server completes the deletion within minutes. Quote the request id when reporting it.',
      );
    }
  }

  /** Runs the deletion the marker stands for to its end; joins the run already under way in this process. */
  complete(tenant: Tenant, marker: DeletionMarker): Promise<DeletionMarker> {
    const customerId = tenant.customerId;
    let run = this.running.get(customerId);
    if (!run) {
      run = this.run(tenant, marker).finally(() => this.running.delete(customerId));
      this.running.set(customerId, run);
    }
    return run;
  }

  /**
   * Deletes again whatever a request that was already past authentication when the marker was
   * written may have stored after the deletion passed (a validation finishing, say): run once,
   * when no such request can still be running.
   */
  async sweep(tenant: Tenant, marker: DeletionMarker): Promise<void> {
    const { items, files } = await this.purge(tenant.customerId, marker);
    await this.deps.state.markSwept(marker, this.deps.clock.now());
    if (files > 0 || Object.values(items).some((count) => count > 0)) {
      this.deps.log.warn({ customer_id: tenant.customerId, items, files }, 'deleted data written after the account deletion');
    }
  }

  private async run(tenant: Tenant, marker: DeletionMarker): Promise<DeletionMarker> {
    if (marker.state === 'deleted') return marker;
    const { state, clock, log } = this.deps;
    const { items, files } = await this.purge(tenant.customerId, marker);
    await this.recordTermination(tenant, marker);
    const done = await state.markDeleted(marker, clock.now());
    const actor = { type: marker.requested_by.type, id: marker.requested_by.id };
    log.warn({ compliance_event: 'account_deleted', customer_id: tenant.customerId, actor, items, files }, 'account deleted');
    return done;
  }

  /** Every item of the tenant's partition in every container but the kept ones, then its stored files. */
  private async purge(customerId: string, marker: DeletionMarker): Promise<{ items: Record<string, number>; files: number }> {
    const { cosmos, storage, state, clock } = this.deps;
    let pages = 0;
    const heartbeat = async () => {
      pages += 1;
      if (pages % pagesPerHeartbeat === 0) await state.heartbeat(marker, clock.now());
    };
    const items: Record<string, number> = {};
    for (const name of purgedContainers()) {
      items[name] = await purgePartition(cosmos.container(name), customerId, { onPage: heartbeat });
      await state.heartbeat(marker, clock.now());
    }
    return { items, files: await storage.forTenant(customerId).deletePrefix('') };
  }

  /** The trail's last event, written once even when the deletion ran more than once. */
  private async recordTermination(tenant: Tenant, marker: DeletionMarker): Promise<void> {
    if (!tenant.features.audit_trail) return;
    const recorded = this.deps.audit.events(tenant.customerId, { kinds: ['account_deleted'], from: marker.requested_at }, 1);
    for await (const page of recorded) if (page.length > 0) return;
    await this.deps.trail.append(tenant, { kind: 'account_deleted', actor: marker.requested_by, validationId: null, data: {} });
  }
}
