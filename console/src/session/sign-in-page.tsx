// Sign-in: with the tenant's local accounts, or through its identity provider when the customer id
// typed belongs to a tenant that has one (the console's sign-in options say which, once the person
// stops typing). On success the person goes back to the page they were on when their session ended
// (the `next` parameter, a path inside the console only).
import type { LoginRequest } from '@groundcheck/sdk';
import { useMutation } from '@tanstack/react-query';
import { useForm, useWatch } from 'react-hook-form';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { anonymousApi } from '../api/client';
import { Page } from '../ui/page';
import { ProblemMessage } from '../ui/problem-message';
import { IdentityProviderSignIn } from './identity-provider-sign-in';
import { LocalSignInFields } from './local-sign-in-fields';
import { sessionStore, useSession } from './session-store';
import { type IdentityProvider, useSignInOptions } from './sign-in-options';
import { useSettledValue } from './use-settled-value';

/** Only a path of this console: never another origin or a protocol-relative address. */
export function safeNext(next: string | null): string {
  return next?.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/dashboard';
}

export function SignInPage() {
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const session = useSession();
  const navigate = useNavigate();
  const form = useForm<LoginRequest>({
    defaultValues: { customer_id: sessionStore.expiredCustomerId() ?? '', email: '', password: '' },
    // Email and password leave the form, rules and all, for a tenant that signs in elsewhere.
    shouldUnregister: true,
  });
  // Undefined for a moment once signed in, when the form leaves the page with its fields.
  const typed = (useWatch({ control: form.control, name: 'customer_id' }) ?? '').trim();
  const customerId = useSettledValue(typed, 300);
  const options = useSignInOptions(customerId);
  // While the person is still typing, the answer for the previous customer id does not apply.
  const current = typed === customerId ? options : null;
  const provider = current?.data?.identity_provider ?? null;
  const local = current?.data?.local ?? true;
  const login = useMutation({
    mutationFn: async (body: LoginRequest) => ({ body, reply: await anonymousApi.auth.login(body) }),
    onSuccess: ({ body, reply }) => {
      sessionStore.start({ token: reply.token, expiresAt: reply.expires_at, customerId: body.customer_id, authentication: 'local' });
      navigate(next, { replace: true });
    },
  });
  const leave = useMutation({
    mutationFn: async (identityProvider: IdentityProvider) => {
      // The OpenID Connect client is loaded only by the people who use it.
      const { startOidcSignIn } = await import('./oidc-sign-in');
      await startOidcSignIn(customerId, identityProvider, next);
    },
  });
  if (session) return <Navigate to={next} replace />;
  const { errors } = form.formState;
  const submit = (body: LoginRequest) => (provider && !local ? leave.mutate(provider) : login.mutate(body));
  return (
    <main className="sign-in">
      <Page title="Sign in">
        {sessionStore.endedBecauseExpired() && (
          <output className="notice">Your session has ended. Sign in again to go back where you were.</output>
        )}
        {sessionStore.endedBecauseAccountDeleted() && (
          <output className="notice">The account was deleted. Its users can no longer sign in.</output>
        )}
        <form onSubmit={form.handleSubmit(submit)} noValidate className="stack">
          <label>
            Customer id
            <input
              autoComplete="organization"
              aria-invalid={errors.customer_id ? true : undefined}
              {...form.register('customer_id', { required: 'Enter your customer id.' })}
            />
            {errors.customer_id && <span className="field-error">{errors.customer_id.message}</span>}
          </label>
          {current?.isError && <ProblemMessage error={current.error} />}
          {/* Present from the start, so that screen readers announce the change of sign-in. */}
          <output className="sign-in-method">
            {provider && (
              <span className="notice">
                {local
                  ? 'This customer id can also sign in through its identity provider.'
                  : 'This customer id signs in through its identity provider.'}
              </span>
            )}
          </output>
          {local && <LocalSignInFields form={form} login={login} />}
          {provider && <IdentityProviderSignIn provider={provider} alsoLocal={local} leave={leave} />}
        </form>
      </Page>
    </main>
  );
}
