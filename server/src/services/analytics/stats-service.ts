// POST /api/v1/stats (decision row 7): the dashboard header's counters, from point reads: the usage
// of the months history still keeps (kept by the batches that write records, usage-counters.ts; four
// with the default retention) and the resource counters (kept by the source group and template
// stores). Nothing is counted at read time.

import type { Stats } from '@groundcheck/contract';
import type { HistoryStore } from '../../cosmos/history-store.js';
import type { ResourceCounters } from '../../cosmos/resource-counters.js';
import type { Caller } from '../call-context.js';
import { type UsageMonth, usageFigures, usageMonthId, usageMonths } from './usage-counters.js';

export class StatsService {
  constructor(
    private readonly history: HistoryStore,
    private readonly resources: ResourceCounters,
    private readonly historyTtlDays: number,
  ) {}

  async stats(ctx: Caller): Promise<Stats> {
    const { customerId } = ctx.tenant;
    const now = ctx.clock.now();
    const [months, resources] = await Promise.all([
      Promise.all(usageMonths(now, this.historyTtlDays).map((month) => this.history.tally<UsageMonth>(customerId, usageMonthId(month)))),
      this.resources.read(customerId),
    ]);
    const figures = usageFigures(
      months.filter((month) => month !== null),
      now,
      this.historyTtlDays,
    );
    return {
      customer_id: customerId,
      generated_at: now.toISOString(),
      validations: { this_month: figures.thisMonth, total: figures.total, with_issues: figures.withIssues, by_mode: figures.byMode },
      reviews: figures.reviews,
      sources: resources.sources,
      templates: resources.templates,
    };
  }
}
