// The service's role model (admin > user > viewer) and tenant features, as the contract names them.
import type { Features, Role } from '@groundcheck/contract';

export type Feature = keyof Features;

const roleRanks = new Map<string, number>([
  ['viewer', 1],
  ['user', 2],
  ['admin', 3],
]);

/** The role's rank, or 0 for anything that is not one of the three roles. */
export function roleRank(role: unknown): number {
  return typeof role === 'string' ? (roleRanks.get(role) ?? 0) : 0;
}

/** Fails closed: an unknown or missing role has no rights, and no role satisfies an unknown requirement. */
export function hasRole(actual: unknown, required: Role): boolean {
  const needed = roleRank(required);
  return needed > 0 && roleRank(actual) >= needed;
}

export function isRole(value: unknown): value is Role {
  return roleRank(value) > 0;
}
