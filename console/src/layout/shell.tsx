// The frame around every signed-in screen: a skip link, the navigation the person's role allows,
// who is signed in, and sign-out. Without a session it sends the person to sign in and back here.
import { useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { Navigate, NavLink, Outlet, useLocation } from 'react-router';
import { useMe } from '../api/me';
import { sessionStore, useSession } from '../session/session-store';
import { ProblemMessage } from '../ui/problem-message';
import { screensFor } from './navigation';

export function Shell() {
  const session = useSession();
  const location = useLocation();
  const me = useMe();
  const queryClient = useQueryClient();
  const mainId = useId();
  if (!session) {
    const next = location.pathname + location.search;
    return <Navigate to={`/sign-in?next=${encodeURIComponent(next)}`} replace />;
  }
  const signOut = () => {
    sessionStore.end('signed-out');
    queryClient.clear();
  };
  return (
    <div className="shell">
      <a className="skip-link" href={`#${mainId}`}>
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">Groundcheck</span>
        {me.data && (
          <span className="who">
            <span>{me.data.principal.name ?? me.data.principal.email ?? me.data.principal.id}</span>
            <span className="muted">
              {me.data.role} · {me.data.customer.name}
            </span>
          </span>
        )}
        <button type="button" className="button secondary" onClick={signOut}>
          Sign out
        </button>
      </header>
      {me.data && (
        <nav aria-label="Console" className="sidebar">
          <ul>
            {screensFor(me.data).map((screen) => (
              <li key={screen.path}>
                <NavLink to={screen.path}>{screen.label}</NavLink>
              </li>
            ))}
          </ul>
        </nav>
      )}
      <main id={mainId} tabIndex={-1} className="content">
        {me.isError ? <ProblemMessage error={me.error} /> : me.data ? <Outlet context={me.data} /> : <p aria-busy="true">Loading…</p>}
      </main>
    </div>
  );
}
