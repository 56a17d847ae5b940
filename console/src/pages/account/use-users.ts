// The tenant's users with a role (or all), by email, a page of 50 at a time.
import type { Role } from '@groundcheck/sdk';
import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../api/client';

export function useUsers(role: Role | '') {
  return useInfiniteQuery({
    queryKey: ['users', role],
    queryFn: ({ pageParam, signal }) =>
      api.saas.users.list({ limit: 50, ...(role && { role }), ...(pageParam && { cursor: pageParam }) }, { abortSignal: signal }),
    initialPageParam: '',
    getNextPageParam: (page) => (page.has_more && page.next_cursor ? page.next_cursor : undefined),
  });
}
