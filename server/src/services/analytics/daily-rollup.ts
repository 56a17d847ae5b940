// One small document per tenant and day (decision row 5), kept in step at write time: a validation
// adds itself to the rollup of its day in the batch that creates its record, and a review moves the
// validation's count from one review state to the next in the same rollup (the day the validation
// was made), adding the time to decision when the review closes the case. Analytics then reads at
// most 366 of them instead of every validation.
import type { components } from '../../generated/openapi.js';
import { dayOf } from '../../lib/day-range.js';
import { daysToSeconds } from '../../store/containers.js';
import type { HistoryItem, TallyChange } from '../../store/history-store.js';
import {
  bump,
  type CategoryCounts,
  type ConfidenceCounts,
  type ModeCounts,
  type ReviewStateCounts,
  type SeverityCounts,
  zeroCategories,
  zeroConfidenceLevels,
  zeroModes,
  zeroReviewStates,
  zeroSeverities,
} from './counts.js';

type ReviewState = components['schemas']['ReviewState'];

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

function rollupChange(date: string, historyTtlDays: number, change: (rollup: DailyRollup) => DailyRollup): TallyChange<DailyRollup> {
  return {
    id: rollupId(date),
    record: 'daily_rollup',
    empty: () => emptyRollup(date),
    change,
    ttl: daysToSeconds(Math.max(rollupKeepDays, historyTtlDays + 2)),
  };
}

/** What a new record adds to its day. */
export function validationRollup(item: HistoryItem, historyTtlDays: number): TallyChange<DailyRollup> {
  const counted = (item.findings ?? []).filter((finding) => finding.status !== 'passed');
  return rollupChange(dayOf(new Date(item.created_at)), historyTtlDays, (rollup) => ({
    ...rollup,
    validations: rollup.validations + 1,
    with_issues: rollup.with_issues + (item.issue_count > 0 ? 1 : 0),
    issues: rollup.issues + item.issue_count,
    source_conflicts: rollup.source_conflicts + item.source_conflict_count,
    with_source_conflicts: rollup.with_source_conflicts + (item.source_conflict_count > 0 ? 1 : 0),
    by_mode: bump(rollup.by_mode, item.mode),
    by_severity: bump(rollup.by_severity, item.severity),
    by_confidence_level: bump(rollup.by_confidence_level, item.confidence_level),
    by_category: counted.reduce((counts, finding) => bump(counts, finding.category), rollup.by_category),
    reviews: bump(rollup.reviews, item.review.state),
  }));
}

/** A review of `item` moving it from `from` to `to` at `at`; `closes` when the case is decided. */
export function reviewRollup(
  item: HistoryItem,
  move: { from: ReviewState; to: ReviewState; at: Date; closes: boolean },
  historyTtlDays: number,
): TallyChange<DailyRollup> {
  const seconds = Math.max(0, (move.at.getTime() - Date.parse(item.created_at)) / 1000);
  return rollupChange(dayOf(new Date(item.created_at)), historyTtlDays, (rollup) => ({
    ...rollup,
    reviews: bump(bump(rollup.reviews, move.from, -1), move.to),
    decisions: move.closes
      ? {
          count: rollup.decisions.count + 1,
          total_seconds: rollup.decisions.total_seconds + seconds,
          max_seconds: Math.max(rollup.decisions.max_seconds, seconds),
        }
      : rollup.decisions,
  }));
}
