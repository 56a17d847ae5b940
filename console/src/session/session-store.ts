// Where the signed-in person's token lives: sessionStorage (decision S107). It survives a reload of
// the tab, ends with the tab, and is never shared with other tabs or written to disk by a cookie the
// server would then have to defend against cross-site requests. The Content-Security-Policy, which
// allows only the server's own scripts, is what keeps other code from reading it.
import { useSyncExternalStore } from 'react';

export interface Session {
  token: string;
  /** ISO date-time when the token stops working. */
  expiresAt: string;
  customerId: string;
  authentication: 'local' | 'oidc';
}

const key = 'groundcheck.session';
const listeners = new Set<() => void>();
let current: Session | null = read();
/**
 * The session that ended because its token expired or was refused, so that sign-in can say why and
 * offer the same customer id again (for a tenant with an identity provider, that is one click).
 */
let expired: { customerId: string } | null = null;
/** Set when the person deleted the account itself, so that sign-in says why nobody can sign in to it. */
let accountDeleted = false;

function read(): Session | null {
  try {
    const stored = sessionStorage.getItem(key);
    if (!stored) return null;
    const session = JSON.parse(stored) as Session;
    return Date.parse(session.expiresAt) > Date.now() ? session : null;
  } catch {
    return null;
  }
}

function publish(): void {
  for (const listener of listeners) listener();
}

export const sessionStore = {
  get: (): Session | null => current,
  /** The token for the next call, or undefined once it has expired (the call is then refused and the person signs in again). */
  token: (): string | undefined => current?.token,
  start(session: Session): void {
    current = session;
    expired = null;
    accountDeleted = false;
    sessionStorage.setItem(key, JSON.stringify(session));
    publish();
  },
  end(reason: 'signed-out' | 'expired' | 'account-deleted'): void {
    if (!current) return;
    expired = reason === 'expired' ? { customerId: current.customerId } : null;
    accountDeleted = reason === 'account-deleted';
    current = null;
    sessionStorage.removeItem(key);
    publish();
  },
  endedBecauseExpired: (): boolean => expired !== null,
  endedBecauseAccountDeleted: (): boolean => accountDeleted,
  /** The customer id of the session that expired, if the last one did. */
  expiredCustomerId: (): string | null => expired?.customerId ?? null,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useSession(): Session | null {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.get);
}
