// The tenant's usage counters for POST /api/v1/stats (decision row 7): one document read with one
// point read, kept in step by the batch that writes each record. It holds a small count per day
// (validations, issues, modes, review states) for the days history still retains, so `total` and the
// review counts follow HISTORY_TTL_DAYS to the day without anything having to notice an expiry, and
// `this_month` sums the days of the current month.
import type { components } from '../../generated/openapi.js';
import { addDays, dayOf } from '../../lib/day-range.js';
import type { HistoryItem, TallyChange } from '../../store/history-store.js';
import { addCounts, bump, type ModeCounts, type ReviewStateCounts, zeroModes, zeroReviewStates } from './counts.js';

type ReviewState = components['schemas']['ReviewState'];

export interface DayUsage {
  validations: number;
  with_issues: number;
  by_mode: ModeCounts;
  reviews: ReviewStateCounts;
}

export interface UsageCounters {
  /** By UTC day of the validations; days older than the window are dropped at each write. */
  days: Record<string, DayUsage>;
}

export const usageCountersId = 'usage_counters';

const emptyDay = (): DayUsage => ({ validations: 0, with_issues: 0, by_mode: zeroModes(), reviews: zeroReviewStates() });

/** Days kept: the history retention, and at least a month for `this_month`, plus the day in progress. */
const keptDays = (historyTtlDays: number) => Math.max(historyTtlDays, 31) + 1;

function countersChange(now: Date, historyTtlDays: number, change: (days: Record<string, DayUsage>) => void): TallyChange<UsageCounters> {
  const oldest = addDays(dayOf(now), -keptDays(historyTtlDays));
  return {
    id: usageCountersId,
    record: 'usage_counters',
    empty: () => ({ days: {} }),
    change: (counters) => {
      const days = Object.fromEntries(Object.entries(counters.days).filter(([day]) => day >= oldest));
      change(days);
      return { days };
    },
  };
}

/** What a new record adds. */
export function validationCounters(item: HistoryItem, historyTtlDays: number): TallyChange<UsageCounters> {
  const createdAt = new Date(item.created_at);
  return countersChange(createdAt, historyTtlDays, (days) => {
    const key = dayOf(createdAt);
    const day = days[key] ?? emptyDay();
    days[key] = {
      validations: day.validations + 1,
      with_issues: day.with_issues + (item.issue_count > 0 ? 1 : 0),
      by_mode: bump(day.by_mode, item.mode),
      reviews: bump(day.reviews, item.review.state),
    };
  });
}

/** A review moving `item` from one state to another; a day already dropped is not counted again. */
export function reviewCounters(item: HistoryItem, move: { from: ReviewState; to: ReviewState; at: Date }, historyTtlDays: number) {
  return countersChange(move.at, historyTtlDays, (days) => {
    const key = dayOf(new Date(item.created_at));
    const day = days[key];
    if (day) days[key] = { ...day, reviews: bump(bump(day.reviews, move.from, -1), move.to) };
  });
}

export interface UsageFigures {
  thisMonth: number;
  total: number;
  withIssues: number;
  byMode: ModeCounts;
  reviews: ReviewStateCounts;
}

/** The figures at `now`: a day counts while history keeps records made on it. */
export function usageFigures(counters: UsageCounters | null, now: Date, historyTtlDays: number): UsageFigures {
  const month = dayOf(now).slice(0, 7);
  const retainedFrom = dayOf(new Date(now.getTime() - historyTtlDays * 24 * 60 * 60 * 1000));
  const figures: UsageFigures = { thisMonth: 0, total: 0, withIssues: 0, byMode: zeroModes(), reviews: zeroReviewStates() };
  for (const [day, usage] of Object.entries(counters?.days ?? {})) {
    if (day.startsWith(month)) figures.thisMonth += usage.validations;
    if (day < retainedFrom) continue;
    figures.total += usage.validations;
    figures.withIssues += usage.with_issues;
    figures.byMode = addCounts(figures.byMode, usage.by_mode);
    figures.reviews = addCounts(figures.reviews, usage.reviews);
  }
  return figures;
}
