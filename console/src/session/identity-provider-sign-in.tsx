// The way to the tenant's identity provider: the only way for a tenant without local accounts (the
// form's submit button), a second one beside email and password otherwise.
import type { UseMutationResult } from '@tanstack/react-query';
import { ProblemMessage } from '../ui/problem-message';
import type { IdentityProvider } from './sign-in-options';

export function IdentityProviderSignIn({
  provider,
  alsoLocal,
  leave,
}: {
  provider: IdentityProvider;
  alsoLocal: boolean;
  leave: UseMutationResult<void, Error, IdentityProvider>;
}) {
  return (
    <>
      {leave.isError && <ProblemMessage error={leave.error} />}
      <button
        type={alsoLocal ? 'button' : 'submit'}
        className={alsoLocal ? 'button secondary' : 'button'}
        disabled={leave.isPending}
        onClick={alsoLocal ? () => leave.mutate(provider) : undefined}
      >
        {leave.isPending ? 'Opening your identity provider…' : 'Sign in with your identity provider'}
      </button>
    </>
  );
}
