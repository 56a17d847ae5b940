// POST /api/v1/analytics/csv (decision row 6): the daily series of the analytics payload as RFC 4180
// CSV (CRLF, a header row, one row per day), written by csv-stringify. The columns flatten each
// day's counts: `validate`… for the modes, `severity_<value>` and `confidence_<value>`, then `agreement_<count>`.

import type { Analytics, AnalyticsQuery } from '@groundcheck/contract';
import { stringify } from 'csv-stringify/sync';
import { csvOptions } from '../../lib/csv.js';
import type { Caller } from '../call-context.js';
import type { AnalyticsService } from './analytics-service.js';
import { zeroConfidenceLevels, zeroModes, zeroSeverities } from './counts.js';
import { zeroAgreement } from './engine-agreement.js';

type Day = Analytics['daily'][number];

export interface AnalyticsCsvFile {
  filename: string;
  contentType: string;
  body: AsyncIterable<string>;
}

const columns: { header: string; cell: (day: Day) => string | number }[] = [
  { header: 'date', cell: (day) => day.date },
  { header: 'validations', cell: (day) => day.validations },
  { header: 'with_issues', cell: (day) => day.with_issues },
  ...keysOf(zeroModes()).map((mode) => ({ header: mode, cell: (day: Day) => day.by_mode[mode] })),
  ...keysOf(zeroSeverities()).map((level) => ({ header: `severity_${level}`, cell: (day: Day) => day.by_severity[level] })),
  ...keysOf(zeroConfidenceLevels()).map((level) => ({
    header: `confidence_${level}`,
    cell: (day: Day) => day.by_confidence_level[level],
  })),
  ...keysOf(zeroAgreement()).map((count) => ({ header: `agreement_${count}`, cell: (day: Day) => day.engine_agreement[count] })),
];

export async function analyticsCsv(analytics: AnalyticsService, ctx: Caller, query: AnalyticsQuery) {
  const payload = await analytics.analytics(ctx, query);
  const text = stringify(
    payload.daily.map((day) => columns.map((column) => column.cell(day))),
    {
      ...csvOptions,
      header: true,
      columns: columns.map((column) => column.header),
    },
  );
  return {
    filename: `analytics-${payload.customer_id}-${payload.date_from}-${payload.date_to}.csv`,
    contentType: 'text/csv; charset=utf-8',
    body: (async function* () {
      yield text;
    })(),
  } satisfies AnalyticsCsvFile;
}

function keysOf<T extends object>(counts: T): (keyof T & string)[] {
  return Object.keys(counts) as (keyof T & string)[];
}
