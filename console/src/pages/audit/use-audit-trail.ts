// The trail's pages for a query, fetched one cursor at a time as the person asks for more.
import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { TrailQuery } from './trail-filters';

export function useAuditTrail(query: TrailQuery) {
  return useInfiniteQuery({
    queryKey: ['audit', 'trail', query],
    queryFn: ({ pageParam, signal }) => api.audit.list({ ...query, ...(pageParam && { cursor: pageParam }) }, { abortSignal: signal }),
    initialPageParam: '',
    getNextPageParam: (page) => (page.has_more && page.next_cursor ? page.next_cursor : undefined),
  });
}
