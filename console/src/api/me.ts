// Who is signed in, with which role and which of the tenant's features: read once per session.
import type { Me, Role } from '@groundcheck/sdk';
import { useQuery } from '@tanstack/react-query';
import { useSession } from '../session/session-store';
import { api } from './client';

export function useMe() {
  const session = useSession();
  return useQuery({
    queryKey: ['me', session?.token],
    queryFn: async (): Promise<Me> => await api.auth.me(),
    enabled: session !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

const rank: Record<Role, number> = { viewer: 0, user: 1, admin: 2 };

/** Whether a role may do what `needed` may: roles are ordered viewer < user < admin. */
export function hasRole(role: Role | undefined, needed: Role): boolean {
  return role !== undefined && rank[role] >= rank[needed];
}
