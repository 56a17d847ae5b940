// The screens in the navigation, with the least role that sees each and the tenant feature it needs.
import type { Me, Role } from '@groundcheck/sdk';
import { hasRole } from '../api/me';

interface Screen {
  path: string;
  label: string;
  role: Role;
  feature?: keyof Me['customer']['features'];
}

const screens: Screen[] = [
  { path: '/dashboard', label: 'Dashboard', role: 'viewer' },
  { path: '/check', label: 'Check an answer', role: 'user' },
  { path: '/reviews', label: 'Reviews', role: 'viewer' },
  { path: '/sources', label: 'Sources', role: 'viewer' },
  { path: '/templates', label: 'Templates', role: 'admin', feature: 'document_templates' },
  { path: '/audit', label: 'Audit', role: 'admin', feature: 'audit_trail' },
  { path: '/account', label: 'Account', role: 'admin' },
  { path: '/system', label: 'System card', role: 'viewer', feature: 'audit_trail' },
];

export function screensFor(me: Me): Screen[] {
  return screens.filter((screen) => hasRole(me.role, screen.role) && (!screen.feature || me.customer.features[screen.feature] === true));
}
