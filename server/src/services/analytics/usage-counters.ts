// The tenant's usage counters for POST /api/v1/stats (decision rows 7 and S36): one small document per
// UTC month (`usage_<YYYY-MM>` in the tenant's partition of `history`) holding, per day of the month,
// the validations, those with issues, the modes and the review states. A record's batch adds to it
// with Cosmos DB `incr` patches, which need no ETag, so concurrent validations of a tenant never
// wait for each other nor lose a count. Every count is a map from the day of the month to a number,
// and each map exists from the document's creation: `incr` then creates the day's key itself.
// `total` and the review counts follow HISTORY_TTL_DAYS to the day; `this_month` sums the current
// month. A month document expires a while after history no longer keeps any record it counts.
import type { PatchOperation } from '@azure/cosmos';
import type { ModeCounts, ReviewState, ReviewStateCounts } from '@groundcheck/contract';
import { daysToSeconds } from '../../cosmos/containers.js';
import type { HistoryItem, Tally } from '../../cosmos/history-store.js';
import { addDays, dayOf } from '../../lib/day-range.js';
import { countPath, zeroModes, zeroReviewStates } from './counts.js';

/** Counts by day of the month (`"01"`…`"31"`). */
type ByDay = Record<string, number>;

export interface UsageMonth {
  month: string;
  validations: ByDay;
  with_issues: ByDay;
  by_mode: Record<keyof ModeCounts, ByDay>;
  reviews: Record<keyof ReviewStateCounts, ByDay>;
}

export const usageMonthId = (month: string) => `usage_${month}`;

const byDayOf = <T extends object>(zero: T) => Object.fromEntries(Object.keys(zero).map((key) => [key, {}])) as Record<keyof T, ByDay>;

function emptyMonth(month: string): UsageMonth {
  return { month, validations: {}, with_issues: {}, by_mode: byDayOf(zeroModes()), reviews: byDayOf(zeroReviewStates()) };
}

/** The month's tally: `counts` are paths under the month document (without the day) and what to add. */
function usageTally(createdAt: Date, historyTtlDays: number, counts: [path: string, by: number][]): Tally {
  const day = dayOf(createdAt);
  const month = day.slice(0, 7);
  return {
    id: usageMonthId(month),
    record: 'usage_month',
    empty: () => emptyMonth(month),
    // The last record of the month is kept HISTORY_TTL_DAYS; a month later nothing it counts is shown.
    ttl: daysToSeconds(historyTtlDays + 62),
    increments: counts
      .filter(([, by]) => by !== 0)
      .map(([path, by]): PatchOperation => ({ op: 'incr', path: `/${path}/${day.slice(8)}`, value: by })),
  };
}

const reviewPath = (state: ReviewState) => countPath('reviews', zeroReviewStates(), state);

/** What a new record adds. */
export function validationUsage(item: HistoryItem, historyTtlDays: number): Tally {
  return usageTally(new Date(item.created_at), historyTtlDays, [
    ['validations', 1],
    ['with_issues', item.issue_count > 0 ? 1 : 0],
    [`by_mode/${item.mode}`, 1],
    ...reviewPath(item.review.state).map((path): [string, number] => [path, 1]),
  ]);
}

/** A review moving `item` from one state to another, counted on the day the validation was made. */
export function reviewUsage(item: HistoryItem, move: { from: ReviewState; to: ReviewState }, historyTtlDays: number): Tally {
  return usageTally(new Date(item.created_at), historyTtlDays, [
    ...reviewPath(move.from).map((path): [string, number] => [path, -1]),
    ...reviewPath(move.to).map((path): [string, number] => [path, 1]),
  ]);
}

/** The months whose documents `usageFigures` needs at `now`: the current one and those history still keeps days of. */
export function usageMonths(now: Date, historyTtlDays: number): string[] {
  const months = new Set<string>();
  for (let day = addDays(dayOf(now), -historyTtlDays); day <= dayOf(now); day = addDays(day, 28)) months.add(day.slice(0, 7));
  months.add(dayOf(now).slice(0, 7));
  return [...months].sort();
}

export interface UsageFigures {
  thisMonth: number;
  total: number;
  withIssues: number;
  byMode: ModeCounts;
  reviews: ReviewStateCounts;
}

/** The figures at `now` from the month documents there are: a day counts while history keeps records made on it. */
export function usageFigures(months: UsageMonth[], now: Date, historyTtlDays: number): UsageFigures {
  const thisMonth = dayOf(now).slice(0, 7);
  const retainedFrom = dayOf(new Date(now.getTime() - daysToSeconds(historyTtlDays) * 1000));
  const figures: UsageFigures = { thisMonth: 0, total: 0, withIssues: 0, byMode: zeroModes(), reviews: zeroReviewStates() };
  const retained = (month: string, counts: ByDay | undefined) =>
    Object.entries(counts ?? {})
      .filter(([day]) => `${month}-${day}` >= retainedFrom)
      .reduce((sum, [, count]) => sum + count, 0);
  for (const usage of months) {
    if (usage.month === thisMonth) figures.thisMonth += Object.values(usage.validations).reduce((sum, count) => sum + count, 0);
    figures.total += retained(usage.month, usage.validations);
    figures.withIssues += retained(usage.month, usage.with_issues);
    for (const mode of Object.keys(figures.byMode) as (keyof ModeCounts)[])
      figures.byMode[mode] += retained(usage.month, usage.by_mode[mode]);
    for (const state of Object.keys(figures.reviews) as (keyof ReviewStateCounts)[]) {
      figures.reviews[state] += retained(usage.month, usage.reviews[state]);
    }
  }
  return figures;
}
