// Email and password, for a tenant with local accounts.
import type { LoginRequest } from '@groundcheck/sdk';
import type { UseMutationResult } from '@tanstack/react-query';
import type { UseFormReturn } from 'react-hook-form';
import { ProblemMessage } from '../ui/problem-message';

export function LocalSignInFields({
  form,
  login,
}: {
  form: UseFormReturn<LoginRequest>;
  login: UseMutationResult<unknown, Error, LoginRequest>;
}) {
  const { errors } = form.formState;
  return (
    <>
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
    </>
  );
}
