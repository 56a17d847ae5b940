// Where the identity provider sends the person back: the code becomes the session, then the page
// they asked for opens. A refusal at the provider (or a stale link) is shown, with the way back.
import { useQuery } from '@tanstack/react-query';
import { Link, Navigate } from 'react-router';
import { Page } from '../ui/page';
import { ProblemMessage } from '../ui/problem-message';
import { finishOidcSignIn } from './oidc-sign-in';
import { safeNext } from './sign-in-page';

export function OidcCallbackPage() {
  const url = window.location.href;
  // A query rather than an effect: the code can be exchanged once only, and React's development
  // double rendering would otherwise send it twice.
  const finish = useQuery({
    queryKey: ['oidc-callback', url],
    queryFn: () => finishOidcSignIn(url),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
  if (finish.isSuccess) return <Navigate to={safeNext(finish.data)} replace />;
  return (
    <main className="sign-in">
      <Page title={finish.isError ? 'Sign-in did not finish' : 'Signing in'}>
        {finish.isError ? (
          <div className="stack">
            <ProblemMessage error={finish.error} />
            <p>
              <Link to="/sign-in">Back to sign-in</Link>
            </p>
          </div>
        ) : (
          <p aria-busy="true">Finishing sign-in with your identity provider…</p>
        )}
      </Page>
    </main>
  );
}
