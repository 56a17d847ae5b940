import { analyticsCsv } from '../services/analytics/analytics-csv.js';
import type { AnalyticsService } from '../services/analytics/analytics-service.js';
import type { StatsService } from '../services/analytics/stats-service.js';
import { callerOf } from '../services/call-context.js';
import { type OperationTable, Streamed } from './operation.js';

export function analyticsOperations(stats: StatsService, analytics: AnalyticsService) {
  return {
    getStats: async (_body, ctx) => stats.stats(callerOf(ctx)),
    getAnalytics: async (body, ctx) => analytics.analytics(callerOf(ctx), body),
    getAnalyticsCsv: async (body, ctx) => {
      const file = await analyticsCsv(analytics, callerOf(ctx), body);
      return new Streamed(file.contentType, file.body, file.filename);
    },
  } satisfies OperationTable;
}
