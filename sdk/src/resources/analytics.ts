import type { Analytics as AnalyticsPayload, Stats } from '@groundcheck/contract';
import { type RequestOptions, type Transport, unwrap } from '../request.js';
import type { WithResponse } from '../response.js';
import type { RequestBody } from '../types.js';

/** Tenant usage counters: this month's and retained validations, reviews, sources, templates. */
export async function stats(transport: Transport, options?: RequestOptions): Promise<WithResponse<Stats>> {
  return unwrap(await transport.raw.POST('/api/v1/stats', transport.init(options)));
}

/** Analytics over a date range (default the last 30 days, at most 366). */
export class Analytics {
  constructor(private readonly transport: Transport) {}

  async get(query?: RequestBody<'AnalyticsQuery'>, options?: RequestOptions): Promise<WithResponse<AnalyticsPayload>> {
    return unwrap(await this.transport.raw.POST('/api/v1/analytics', { body: query, ...this.transport.init(options) }));
  }

  /** The daily series as RFC 4180 CSV text; `client.lastResponse` has the response details. */
  async csv(query?: RequestBody<'AnalyticsQuery'>, options?: RequestOptions): Promise<string> {
    return unwrap(
      await this.transport.raw.POST('/api/v1/analytics/csv', { body: query, parseAs: 'text', ...this.transport.init(options) }),
    );
  }
}
