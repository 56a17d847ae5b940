// A user's details, to create one or change one. A change sends only the fields that changed, so
// saving a name does not touch the role or status (whose change ends the user's sessions).
import type { Role, User, UserSaveRequest, UserStatus } from '@groundcheck/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { api } from '../../api/client';
import { ProblemMessage } from '../../ui/problem-message';
import { roleLabels, roles, statusLabels } from './role-labels';

interface UserFormValues {
  email: string;
  name: string;
  role: Role;
  status: UserStatus;
  /** Comma-separated, as typed. */
  dataAccessRoles: string;
  password: string;
}

const listOf = (typed: string) => [...new Set(typed.split(',').map((role) => role.trim()))].filter(Boolean);

function valuesOf(user: User | null): UserFormValues {
  return {
    email: user?.email ?? '',
    name: user?.name ?? '',
    role: user?.role ?? 'user',
    status: user?.status ?? 'active',
    dataAccessRoles: user?.data_access_roles.join(', ') ?? '',
    password: '',
  };
}

function requestFrom(user: User | null, values: UserFormValues): UserSaveRequest {
  const password = values.password ? { password: values.password } : {};
  const dataAccessRoles = listOf(values.dataAccessRoles);
  if (!user) {
    return {
      email: values.email.trim(),
      role: values.role,
      ...(values.name.trim() && { name: values.name.trim() }),
      ...(dataAccessRoles.length > 0 && { data_access_roles: dataAccessRoles }),
      ...(values.status !== 'active' && { status: values.status }),
      ...password,
    };
  }
  return {
    user_id: user.user_id,
    ...(values.email.trim() !== user.email && { email: values.email.trim() }),
    ...(values.name.trim() && values.name.trim() !== user.name && { name: values.name.trim() }),
    ...(values.role !== user.role && { role: values.role }),
    ...(values.status !== user.status && { status: values.status }),
    ...(dataAccessRoles.join(',') !== user.data_access_roles.join(',') && { data_access_roles: dataAccessRoles }),
    ...password,
  };
}

export function UserForm({
  user,
  withPassword,
  onSaved,
  onCancel,
}: {
  /** The user to change; null to create one. */
  user: User | null;
  /** Whether the tenant signs in with local passwords. */
  withPassword: boolean;
  onSaved: (user: User) => void;
  onCancel: () => void;
}) {
  const queryClient = useQueryClient();
  const rolesHint = useId();
  const passwordHint = useId();
  const form = useForm<UserFormValues>({ defaultValues: valuesOf(user) });
  const { errors } = form.formState;
  const save = useMutation({
    mutationFn: (values: UserFormValues) => api.saas.users.save(requestFrom(user, values)),
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: ['users'] });
      onSaved(saved);
    },
  });
  return (
    <form className="stack" noValidate onSubmit={form.handleSubmit((values) => save.mutate(values))}>
      <label>
        Email
        <input
          type="email"
          autoComplete="off"
          aria-invalid={errors.email ? true : undefined}
          {...form.register('email', {
            required: 'Enter the email address.',
            maxLength: { value: 254, message: 'At most 254 characters.' },
            pattern: { value: /^[^\s@]+@[^\s@]+$/, message: 'Enter an email address, such as name@example.com.' },
          })}
        />
        {errors.email && <span className="field-error">{errors.email.message}</span>}
      </label>
      <label>
        Name
        <input
          autoComplete="off"
          aria-invalid={errors.name ? true : undefined}
          {...form.register('name', { maxLength: { value: 200, message: 'At most 200 characters.' } })}
        />
        {errors.name && <span className="field-error">{errors.name.message}</span>}
      </label>
      <label>
        Role
        <select {...form.register('role')}>
          {roles.map((role) => (
            <option key={role} value={role}>
              {roleLabels[role]}
            </option>
          ))}
        </select>
      </label>
      {user && (
        <label>
          Status
          <select {...form.register('status')}>
            {Object.entries(statusLabels).map(([status, label]) => (
              <option key={status} value={status}>
                {label}
              </option>
            ))}
          </select>
        </label>
      )}
      <div className="field">
        <label>
          Data access roles
          <input autoComplete="off" aria-describedby={rolesHint} {...form.register('dataAccessRoles')} />
        </label>
        <span id={rolesHint} className="muted hint">
          Separated by commas, for example: hr, finance. They decide which source groups the user may use.
        </span>
      </div>
      {withPassword && (
        <div className="field">
          <label>
            {user ? 'New password' : 'Password'}
            <input
              type="password"
              autoComplete="new-password"
              aria-invalid={errors.password ? true : undefined}
              aria-describedby={passwordHint}
              {...form.register('password', {
                minLength: { value: 12, message: 'At least 12 characters.' },
                maxLength: { value: 1024, message: 'At most 1024 characters.' },
              })}
            />
            {errors.password && <span className="field-error">{errors.password.message}</span>}
          </label>
          <span id={passwordHint} className="muted hint">
            At least 12 characters, not a commonly used one.{' '}
            {user ? 'Leave it empty to keep the current password.' : 'Without one, the user cannot sign in with a password.'}
          </span>
        </div>
      )}
      {save.isError && <ProblemMessage error={save.error} />}
      <div className="row">
        <button type="submit" className="button" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : user ? 'Save changes' : 'Add the user'}
        </button>
        <button type="button" className="button secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
