// POST /api/v1/analytics (decision rows 5 and 77): the figures of a day range (default the last 30
// days, at most 366) summed from the tenant's daily rollups (daily-rollup.ts), which one
// single-partition query reads: at most 366 small documents, however many validations there were.
// Engine agreement (S105) and the tenant's operating point (S106) read the decided validations themselves, so
// that a deleted one no longer counts: as many as people decided, bounded.

import type { Analytics, AnalyticsQuery } from '@groundcheck/contract';
import type { HistoryStore } from '../../cosmos/history-store.js';
import { BadRequestError } from '../../errors.js';
import { addDays, dayOf, dayRange } from '../../lib/day-range.js';
import type { Tenant } from '../../tenants/tenant.js';
import type { Caller } from '../call-context.js';
import { calibration } from './calibration.js';
import { addCounts } from './counts.js';
import { type DailyRollup, emptyRollup } from './daily-rollup.js';
import { decidedStates, engineAgreement, tallyAgreement, zeroAgreement } from './engine-agreement.js';

const defaultDays = 30;
/** Decided reviews read for engine agreement and calibration, the newest first: a bound on one call's work. */
const maxAgreementDecisions = 50_000;
const maxDays = 366;
const dayMs = 24 * 60 * 60 * 1000;

export class AnalyticsService {
  constructor(
    private readonly history: HistoryStore,
    /** The `supported_score` new validations of the tenant use: the applied operating point or the file's (S113). */
    private readonly supportedScore: (tenant: Tenant) => Promise<number> = async (tenant) => tenant.engineThresholds.supportedScore,
  ) {}

  async analytics(ctx: Caller, query: AnalyticsQuery): Promise<Analytics> {
    const now = ctx.clock.now();
    const { from, to, count } = analyticsDays(query, dayOf(now));
    const dates = Array.from({ length: count }, (_, i) => addDays(from, i));
    const decidedFrom = (fromIso: string, toIso: string) =>
      this.history.decidedReviews(ctx.tenant.customerId, { fromIso, toIso, now: now.toISOString() }, decidedStates, maxAgreementDecisions);
    const [stored, decided, history, current] = await Promise.all([
      this.history.rollups<DailyRollup>(ctx.tenant.customerId, from, to),
      decidedFrom(`${from}T00:00:00.000Z`, `${addDays(to, 1)}T00:00:00.000Z`),
      // The operating point rests on every decision the tenant has, whatever the range asked for.
      ctx.tenant.calibration.mode === 'off' ? [] : decidedFrom(new Date(0).toISOString(), now.toISOString()),
      this.supportedScore(ctx.tenant),
    ]);
    // Days are keys of a Map built here, never looked up on an object.
    const byDay = new Map(stored.map((rollup) => [rollup.date, rollup]));
    const days = dates.map((day) => completed(byDay.get(day), day));
    const agreement = tallyAgreement(decided);
    const total = days.reduce(sumRollups, emptyRollup(from));
    return {
      customer_id: ctx.tenant.customerId,
      date_from: from,
      date_to: to,
      generated_at: now.toISOString(),
      totals: {
        validations: total.validations,
        with_issues: total.with_issues,
        issue_rate: ratio(total.with_issues, total.validations),
        issues: total.issues,
        source_conflicts: total.source_conflicts,
        source_conflict_rate: ratio(total.with_source_conflicts, total.validations),
      },
      by_mode: total.by_mode,
      by_severity: total.by_severity,
      by_confidence_level: total.by_confidence_level,
      by_category: total.by_category,
      reviews: total.reviews,
      time_to_decision: {
        decisions: total.decisions.count,
        mean_seconds: total.decisions.count > 0 ? total.decisions.total_seconds / total.decisions.count : null,
        max_seconds: total.decisions.count > 0 ? total.decisions.max_seconds : null,
      },
      engine_agreement: engineAgreement(dates, agreement),
      calibration: calibration(history, ctx.tenant.calibration, current),
      daily: days.map((day) => ({
        date: day.date,
        validations: day.validations,
        with_issues: day.with_issues,
        by_mode: day.by_mode,
        by_severity: day.by_severity,
        by_confidence_level: day.by_confidence_level,
        engine_agreement: agreement.byDay.get(day.date) ?? zeroAgreement(),
      })),
    };
  }
}

/**
 * The days asked for, in UTC: both dates as given; `date_from` alone runs to today; `date_to` alone,
 * or neither, is the 30 days ending on it (today). More than 366 days is a 400.
 */
export function analyticsDays(query: AnalyticsQuery, today: string): { from: string; to: string; count: number } {
  dayRange(query.date_from, query.date_to);
  const to = query.date_to ?? (query.date_from !== undefined && query.date_from > today ? query.date_from : today);
  const from = query.date_from ?? addDays(to, -(defaultDays - 1));
  const days = (Date.parse(to) - Date.parse(from)) / dayMs + 1;
  if (days > maxDays) {
    throw new BadRequestError('invalid_request', `The range covers ${days} days; at most ${maxDays} are allowed.`, [
      { pointer: query.date_from !== undefined ? '/date_from' : '/date_to', detail: `From ${from} to ${to} is more than ${maxDays} days.` },
    ]);
  }
  return { from, to, count: days };
}

/** A stored rollup with every key of today's shape (counts written before a new enum value lack it), or an empty day. */
function completed(stored: DailyRollup | undefined, day: string): DailyRollup {
  return stored ? sumRollups(emptyRollup(day), stored) : emptyRollup(day);
}

function sumRollups(a: DailyRollup, b: DailyRollup): DailyRollup {
  return {
    date: a.date,
    validations: a.validations + b.validations,
    with_issues: a.with_issues + b.with_issues,
    issues: a.issues + b.issues,
    source_conflicts: a.source_conflicts + b.source_conflicts,
    with_source_conflicts: a.with_source_conflicts + b.with_source_conflicts,
    by_mode: addCounts(a.by_mode, b.by_mode),
    by_severity: addCounts(a.by_severity, b.by_severity),
    by_confidence_level: addCounts(a.by_confidence_level, b.by_confidence_level),
    by_category: addCounts(a.by_category, b.by_category),
    reviews: addCounts(a.reviews, b.reviews),
    decisions: {
      count: a.decisions.count + b.decisions.count,
      total_seconds: a.decisions.total_seconds + b.decisions.total_seconds,
      max_seconds: Math.max(a.decisions.max_seconds, b.decisions.max_seconds),
    },
  };
}

const ratio = (part: number, whole: number) => (whole > 0 ? part / whole : 0);
