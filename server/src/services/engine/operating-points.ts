// The tenant's operating point applied (issue 33, decision S113): the `supported_score` fitted to the tenant's own
// decided reviews (analytics/calibration.ts, decision S106), stored per tenant (cosmos/operating-point-store.ts) and
// used by new validations in place of the tenant file's `engine.supported_score`, with an `operating_point_applied`
// audit event. An admin applies it (POST /api/v1/engine/operating-point) in modes `suggest` and `apply`; in mode
// `apply` the server fits by itself (operating-point-pass.ts). A point is applied only when calibration suggests one,
// which it does only when the point beats the current one on the newer decisions, and only when it differs from the
// point in force. The file's value is back in force when the mode is `off` or the file's `supported_score` changed
// since the point was applied (the operator's edit wins).
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Actor, AgreementRates, OperatingPoint, SystemCard } from '@groundcheck/contract';
import type { AuditStore } from '../../cosmos/audit-store.js';
import type { HistoryStore } from '../../cosmos/history-store.js';
import type { AppliedPoint, OperatingPointStore, PendingEvent, StoredOperatingPoint } from '../../cosmos/operating-point-store.js';
import type { EngineThresholds } from '../../engine/index.js';
import { ConflictError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { Logger } from '../../logger.js';
import type { Tenant } from '../../tenants/tenant.js';
import { calibration } from '../analytics/calibration.js';
import { decidedStates } from '../analytics/engine-agreement.js';
import { type AuditTrail, actorOf, systemActor } from '../audit/audit-trail.js';
import type { Caller } from '../call-context.js';

/** How long a process keeps the point it read: other processes use a newly applied point within this time. */
export const operatingPointCacheMs = 30_000;
/** A pending audit event younger than this is left to the process that wrote it (it appends it in milliseconds). */
const pendingGraceMs = 60_000;
/** Decided reviews a fit reads, the newest first (as analytics does). */
const maxDecisions = 50_000;
/** Attempts of an admin's fit while other writers change the tenant's document. */
const fitAttempts = 20;

export interface OperatingPointsDependencies {
  store: OperatingPointStore;
  history: HistoryStore;
  trail: AuditTrail;
  audit: AuditStore;
  clock: Clock;
  log: Logger;
}

/** What a fit came to: a point applied, or why none was. */
export type FitOutcome =
  | { status: 'applied'; point: AppliedPoint }
  | { status: 'too_few_decisions' | 'no_better_point'; decisions: number; current: number }
  /** Another writer changed the tenant's document first: nothing was written. */
  | { status: 'lost' };

/** The applied point that is in force for the tenant now, if any. */
export function pointInForce(tenant: Tenant, applied: AppliedPoint | null): AppliedPoint | null {
  if (!applied || tenant.calibration.mode === 'off') return null;
  return applied.file_supported_score === tenant.engineThresholds.supportedScore ? applied : null;
}

export class OperatingPoints {
  /** The tenant's applied point as this process last read it, until `until` (performance.now()). */
  private readonly cache = new Map<string, { until: number; applied: AppliedPoint | null }>();

  constructor(private readonly deps: OperatingPointsDependencies) {}

  /** The engine's thresholds for a new validation of the tenant: the file's, with the point in force. */
  async thresholds(tenant: Tenant): Promise<EngineThresholds> {
    return { ...tenant.engineThresholds, supportedScore: await this.supportedScore(tenant) };
  }

  /** The `supported_score` new validations of the tenant use. */
  async supportedScore(tenant: Tenant): Promise<number> {
    return (await this.inForce(tenant))?.fit.supported_score ?? tenant.engineThresholds.supportedScore;
  }

  /** The system card's `operating_point`. */
  async card(tenant: Tenant): Promise<SystemCard['operating_point']> {
    const { fit: _fit, ...point } = operatingPoint(tenant, await this.inForce(tenant));
    return point;
  }

  /**
   * POST /api/v1/engine/operating-point: fits on the tenant's decided reviews now and applies the suggested point;
   * 409 when there is nothing to apply or calibration is off.
   */
  async apply(ctx: Caller): Promise<OperatingPoint> {
    const { tenant } = ctx;
    if (tenant.calibration.mode === 'off') {
      throw new ConflictError('calibration_off', "The tenant's engine.calibration.mode is off: no operating point is fitted or applied.");
    }
    for (let attempt = 0; attempt < fitAttempts; attempt += 1) {
      const stored = await this.settledDocument(tenant);
      if (stored === 'busy') {
        await sleep(Math.random() * Math.min(200, 10 * 2 ** attempt));
        continue;
      }
      const outcome = await this.fit(tenant, actorOf(ctx.principal), stored, ctx.clock.now());
      if (outcome.status === 'applied') return operatingPoint(tenant, outcome.point);
      if (outcome.status === 'too_few_decisions') {
        const { minDecisions, minEach } = tenant.calibration;
        throw new ConflictError(
          'too_few_decisions',
          `The tenant has ${outcome.decisions} decided reviews with a recorded risk; a fit needs ${minDecisions}, of which at least ${minEach} found right and ${minEach} found wrong.`,
        );
      }
      if (outcome.status === 'no_better_point') {
        throw new ConflictError(
          'no_better_operating_point',
          `No point fitted to the tenant's ${outcome.decisions} decided reviews beats the one in force (supported_score ${outcome.current}) on the newer decisions, or the one that does is in force already; nothing changed.`,
        );
      }
      await sleep(Math.random() * Math.min(200, 10 * 2 ** attempt));
    }
    throw new Error(`fitting the operating point of ${tenant.customerId} lost ${fitAttempts} races for its document`);
  }

  /**
   * In mode `apply`: fits when the tenant has enough usable decisions and they grew by `refit_every` since the last
   * fit (or it was never fitted). Every mode: completes the audit event of an application whose writer stopped.
   */
  async refitIfDue(tenant: Tenant): Promise<FitOutcome | null> {
    const stored = await this.settledDocument(tenant);
    if (stored === 'busy' || tenant.calibration.mode !== 'apply') return null;
    const now = this.deps.clock.now();
    const decisions = await this.deps.history.countDecided(tenant.customerId, now.toISOString(), decidedStates);
    if (decisions < tenant.calibration.minDecisions) return null;
    const last = stored?.item.last_fit;
    if (last && decisions < last.decisions + tenant.calibration.refitEvery) return null;
    const outcome = await this.fit(tenant, systemActor, stored, now, decisions);
    if (outcome.status === 'applied') {
      const { previous_supported_score, supported_score } = outcome.point.fit;
      this.deps.log.info(
        { customer_id: tenant.customerId, previous_supported_score, supported_score },
        'applied an operating point fitted to the tenant',
      );
    }
    return outcome;
  }

  /** The applied point in force for the tenant, read through this process's cache. */
  private async inForce(tenant: Tenant): Promise<AppliedPoint | null> {
    if (tenant.calibration.mode === 'off') return null;
    const cached = this.cache.get(tenant.customerId);
    if (cached && cached.until > performance.now()) return pointInForce(tenant, cached.applied);
    const applied = (await this.deps.store.read(tenant.customerId))?.item.applied ?? null;
    this.cache.set(tenant.customerId, { until: performance.now() + operatingPointCacheMs, applied });
    return pointInForce(tenant, applied);
  }

  /**
   * The tenant's document once no application's audit event is pending: a stale one (its writer stopped) is
   * completed first; a young one is its writer's to complete ('busy').
   */
  private async settledDocument(tenant: Tenant): Promise<StoredOperatingPoint | null | 'busy'> {
    const stored = await this.deps.store.read(tenant.customerId);
    const pending = stored?.item.pending_event;
    if (!pending) return stored;
    if (this.deps.clock.now().getTime() - Date.parse(pending.at) < pendingGraceMs) return 'busy';
    this.deps.log.warn({ customer_id: tenant.customerId }, 'completing the audit event of an operating point applied before');
    if (!(await this.recorded(tenant, pending))) await this.appendEvent(tenant, pending);
    await this.clearPending(tenant.customerId, pending.application_id);
    const settled = await this.deps.store.read(tenant.customerId);
    return settled?.item.pending_event ? 'busy' : settled;
  }

  /** Fits on the tenant's decided reviews and, when calibration suggests another point, applies it and audits it. */
  private async fit(tenant: Tenant, actor: Actor, stored: StoredOperatingPoint | null, now: Date, counted?: number): Promise<FitOutcome> {
    const { customerId } = tenant;
    const nowIso = now.toISOString();
    const [decisions, decided] = await Promise.all([
      counted ?? this.deps.history.countDecided(customerId, nowIso, decidedStates),
      this.deps.history.decidedReviews(
        customerId,
        { fromIso: new Date(0).toISOString(), toIso: nowIso, now: nowIso },
        decidedStates,
        maxDecisions,
      ),
    ]);
    const previous = stored?.item.applied ?? null;
    const current = pointInForce(tenant, previous)?.fit.supported_score ?? tenant.engineThresholds.supportedScore;
    const result = calibration(decided, tenant.calibration, current);
    const suggested = result.status === 'suggested' ? result.suggested : null;
    const point: AppliedPoint | null =
      suggested && suggested.supported_score !== current
        ? {
            id: randomUUID(),
            applied_at: nowIso,
            file_supported_score: tenant.engineThresholds.supportedScore,
            fit: {
              previous_supported_score: current,
              supported_score: suggested.supported_score,
              target_precision: result.target_precision,
              decisions: result.decisions,
              fitted_on: suggested.fitted_on,
              measured_on: suggested.measured_on,
              previous: rounded(suggested.current),
              fitted: rounded(suggested.fitted),
            },
          }
        : null;
    const pending: PendingEvent | null = point && { application_id: point.id, at: nowIso, actor, data: point.fit };
    const written = await this.deps.store.write(
      customerId,
      {
        applied: point ?? previous,
        last_fit: { at: nowIso, decisions, status: result.status },
        pending_event: pending ?? stored?.item.pending_event ?? null,
      },
      stored,
    );
    if (written === null) return { status: 'lost' };
    if (!point || !pending) {
      return {
        status: result.status === 'too_few_decisions' ? 'too_few_decisions' : 'no_better_point',
        decisions: result.decisions,
        current,
      };
    }
    this.cache.delete(customerId);
    try {
      await this.appendEvent(tenant, pending);
      await this.clearPending(customerId, pending.application_id);
    } catch (error) {
      this.deps.log.error(
        { err: error, customer_id: customerId },
        'audit event of an applied operating point not yet written; recovery completes it',
      );
    }
    return { status: 'applied', point };
  }

  private async appendEvent(tenant: Tenant, pending: PendingEvent): Promise<void> {
    await this.deps.trail.append(tenant, { kind: 'operating_point_applied', actor: pending.actor, validationId: null, data: pending.data });
  }

  /** Whether the trail holds the pending application's event already (its writer appended it, then stopped). */
  private async recorded(tenant: Tenant, pending: PendingEvent): Promise<boolean> {
    const events = this.deps.audit.events(tenant.customerId, { kinds: ['operating_point_applied'], from: pending.at }, 100);
    for await (const page of events) {
      for (const event of page) {
        if (event.kind !== 'operating_point_applied') continue;
        const { data } = event;
        if (
          data.supported_score === pending.data.supported_score &&
          data.previous_supported_score === pending.data.previous_supported_score
        ) {
          return true;
        }
      }
    }
    return false;
  }

  /** Removes the application's pending event from the tenant's document, unless another application replaced it. */
  private async clearPending(customerId: string, applicationId: string): Promise<void> {
    for (let attempt = 0; attempt < fitAttempts; attempt += 1) {
      const stored = await this.deps.store.read(customerId);
      if (stored?.item.pending_event?.application_id !== applicationId) return;
      if ((await this.deps.store.write(customerId, { ...stored.item, pending_event: null }, stored)) !== null) return;
    }
    throw new Error(`clearing the pending audit event of ${customerId}'s operating point lost ${fitAttempts} races`);
  }
}

/** The tenant's operating point as the API reports it. */
function operatingPoint(tenant: Tenant, inForce: AppliedPoint | null): OperatingPoint {
  return {
    supported_score: inForce?.fit.supported_score ?? tenant.engineThresholds.supportedScore,
    fitted_to_tenant: inForce !== null,
    applied_at: inForce?.applied_at ?? null,
    calibration: tenant.calibration.mode,
    fit: inForce?.fit ?? null,
  };
}

const round4 = (value: number | null) => (value === null ? null : Math.round(value * 10_000) / 10_000);

/** Rates as the audit event records them: rounded to 4 decimals, so every reader hashes the same number. */
function rounded(rates: AgreementRates): AgreementRates {
  return { precision: round4(rates.precision), recall: round4(rates.recall) };
}
