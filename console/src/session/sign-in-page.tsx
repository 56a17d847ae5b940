// Sign-in with the tenant's local accounts. On success the person goes back to the page they were
// on when their session ended (the `next` parameter, a path inside the console only).
import type { LoginRequest } from '@groundcheck/sdk';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { anonymousApi } from '../api/client';
import { Page } from '../ui/page';
import { ProblemMessage } from '../ui/problem-message';
import { sessionStore, useSession } from './session-store';

/** Only a path of this console: never another origin or a protocol-relative address. */
export function safeNext(next: string | null): string {
  return next?.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/dashboard';
}

export function SignInPage() {
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const session = useSession();
  const navigate = useNavigate();
  const form = useForm<LoginRequest>({ defaultValues: { customer_id: '', email: '', password: '' } });
  const login = useMutation({
    mutationFn: async (body: LoginRequest) => ({ body, reply: await anonymousApi.auth.login(body) }),
    onSuccess: ({ body, reply }) => {
      sessionStore.start({ token: reply.token, expiresAt: reply.expires_at, customerId: body.customer_id, authentication: 'local' });
      navigate(next, { replace: true });
    },
  });
  if (session) return <Navigate to={next} replace />;
  const { errors } = form.formState;
  return (
    <main className="sign-in">
      <Page title="Sign in">
        {sessionStore.endedBecauseExpired() && (
          <output className="notice">Your session has ended. Sign in again to go back where you were.</output>
        )}
        <form onSubmit={form.handleSubmit((body) => login.mutate(body))} noValidate className="stack">
          <label>
            Customer id
            <input
              autoComplete="organization"
              aria-invalid={errors.customer_id ? true : undefined}
              {...form.register('customer_id', { required: 'Enter your customer id.' })}
            />
            {errors.customer_id && <span className="field-error">{errors.customer_id.message}</span>}
          </label>
          <label>
            Email
            <input
              type="email"
              autoComplete="username"
              aria-invalid={errors.email ? true : undefined}
              {...form.register('email', { required: 'Enter your email address.' })}
            />
            {errors.email && <span className="field-error">{errors.email.message}</span>}
          </label>
          <label>
            Password
            <input
              type="password"
              autoComplete="current-password"
              aria-invalid={errors.password ? true : undefined}
              {...form.register('password', { required: 'Enter your password.' })}
            />
            {errors.password && <span className="field-error">{errors.password.message}</span>}
          </label>
          {login.isError && <ProblemMessage error={login.error} />}
          <button type="submit" className="button" disabled={login.isPending}>
            {login.isPending ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
      </Page>
    </main>
  );
}
