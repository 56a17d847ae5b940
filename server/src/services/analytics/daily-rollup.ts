// One small document per tenant and day (decision row 5), kept in step at write time: a validation
// adds itself to the rollup of its day in the batch that creates its record, and a review moves the
// validation's count from one review state to the next in the same rollup (the day the validation
// was made), adding the time to decision when the review closes the case. Every change is a set of
// Cosmos DB `incr` patches on paths the empty rollup already holds, so concurrent writers add up
// without reading it; the longest time to decision is raised after the batch (history-store.ts).
// Analytics then reads at most 366 of them instead of every validation.
import type { PatchOperation } from '@azure/cosmos';
import type { CategoryCounts, ConfidenceCounts, ModeCounts, ReviewState, ReviewStateCounts, SeverityCounts } from '@groundcheck/contract';
import { daysToSeconds } from '../../cosmos/containers.js';
import type { HistoryItem, Tally } from '../../cosmos/history-store.js';
import { dayOf } from '../../lib/day-range.js';
import { countPath, zeroCategories, zeroConfidenceLevels, zeroModes, zeroReviewStates, zeroSeverities } from './counts.js';

export interface DailyRollup {
  date: string;
  validations: number;
  with_issues: number;
  issues: number;
  source_conflicts: number;
  with_source_conflicts: number;
  by_mode: ModeCounts;
  by_severity: SeverityCounts;
  by_confidence_level: ConfidenceCounts;
  /** Findings that are issues or were fixed, by category. */
  by_category: CategoryCounts;
  /** The review state, now, of the day's validations. */
  reviews: ReviewStateCounts;
  /** Reviews of the day's validations that closed the case, and how long after the validation. */
  decisions: { count: number; total_seconds: number; max_seconds: number };
}

/** Analytics reaches back at most 366 days; a rollup outlives the records it counts, so a review always finds it. */
const rollupKeepDays = 367;

export const rollupId = (date: string) => `rollup_${date}`;

export function emptyRollup(date: string): DailyRollup {
  return {
    date,
    validations: 0,
    with_issues: 0,
    issues: 0,
    source_conflicts: 0,
    with_source_conflicts: 0,
    by_mode: zeroModes(),
    by_severity: zeroSeverities(),
    by_confidence_level: zeroConfidenceLevels(),
    by_category: zeroCategories(),
    reviews: zeroReviewStates(),
    decisions: { count: 0, total_seconds: 0, max_seconds: 0 },
  };
}

function rollupTally(date: string, historyTtlDays: number, counts: [path: string, by: number][], raise?: Tally['raise']): Tally {
  // Keys that come up twice (two findings of one category) are added once with their sum.
  const sums = new Map<string, number>();
  for (const [path, by] of counts) sums.set(path, (sums.get(path) ?? 0) + by);
  return {
    id: rollupId(date),
    record: 'daily_rollup',
    empty: () => emptyRollup(date),
    ttl: daysToSeconds(Math.max(rollupKeepDays, historyTtlDays + 2)),
    increments: [...sums].filter(([, by]) => by !== 0).map(([path, by]): PatchOperation => ({ op: 'incr', path: `/${path}`, value: by })),
    ...(raise ? { raise } : {}),
  };
}

/** What a new record adds to its day. */
export function validationRollup(item: HistoryItem, historyTtlDays: number): Tally {
  const counted = (item.findings ?? []).filter((finding) => finding.status !== 'passed');
  const one = (path: string): [string, number] => [path, 1];
  return rollupTally(dayOf(new Date(item.created_at)), historyTtlDays, [
    ['validations', 1],
    ['with_issues', item.issue_count > 0 ? 1 : 0],
    ['issues', item.issue_count],
    ['source_conflicts', item.source_conflict_count],
    ['with_source_conflicts', item.source_conflict_count > 0 ? 1 : 0],
    ...countPath('by_mode', zeroModes(), item.mode).map(one),
    ...countPath('by_severity', zeroSeverities(), item.severity).map(one),
    ...countPath('by_confidence_level', zeroConfidenceLevels(), item.confidence_level).map(one),
    ...counted.flatMap((finding) => countPath('by_category', zeroCategories(), finding.category)).map(one),
    ...countPath('reviews', zeroReviewStates(), item.review.state).map(one),
  ]);
}

/** A review of `item` moving it from `from` to `to` at `at`; `closes` when the case is decided. */
export function reviewRollup(
  item: HistoryItem,
  move: { from: ReviewState; to: ReviewState; at: Date; closes: boolean },
  historyTtlDays: number,
): Tally {
  const seconds = Math.max(0, (move.at.getTime() - Date.parse(item.created_at)) / 1000);
  return rollupTally(
    dayOf(new Date(item.created_at)),
    historyTtlDays,
    [
      ...countPath('reviews', zeroReviewStates(), move.from).map((path): [string, number] => [path, -1]),
      ...countPath('reviews', zeroReviewStates(), move.to).map((path): [string, number] => [path, 1]),
      ...(move.closes
        ? [
            ['decisions/count', 1],
            ['decisions/total_seconds', seconds],
          ]
        : []),
    ] as [string, number][],
    move.closes ? { path: 'decisions/max_seconds', value: seconds } : undefined,
  );
}
