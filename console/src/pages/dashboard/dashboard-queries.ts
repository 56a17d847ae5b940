// The dashboard's reads from the API, keyed for the query cache: the tenant's counters and the
// analytics of a range of days.
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { DayRange } from './day-range';

export const statsQuery = queryOptions({
  queryKey: ['stats'],
  queryFn: async () => await api.stats(),
});

export function analyticsQuery(range: DayRange) {
  return queryOptions({
    queryKey: ['analytics', range.date_from, range.date_to],
    queryFn: async () => await api.analytics.get(range),
  });
}
