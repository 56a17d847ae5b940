// One endpoint of the group form: its name, its URL, and which of the caller's details it receives.
import type { AuthzForwarding } from '@groundcheck/sdk';
import type { UseFormReturn } from 'react-hook-form';
import type { GroupFormValues } from './group-form-values';

const forwardings: Array<{ key: keyof AuthzForwarding; label: string }> = [
  { key: 'user_id', label: 'The caller’s user id' },
  { key: 'customer_id', label: 'The customer id' },
  { key: 'data_access_roles', label: 'The caller’s data-access roles' },
  { key: 'original_jwt', label: 'The caller’s sign-in token (identity provider sign-ins only)' },
];

function isHttpUrl(value: string): boolean {
  try {
    return /^https?:$/.test(new URL(value.trim()).protocol);
  } catch {
    return false;
  }
}

export function EndpointFields({ form, index, onRemove }: { form: UseFormReturn<GroupFormValues>; index: number; onRemove: () => void }) {
  const errors = form.formState.errors.endpoints?.[index];
  const number = index + 1;
  return (
    <fieldset className="stack">
      <legend>Endpoint {number}</legend>
      <label>
        Name
        <input
          aria-invalid={errors?.name ? true : undefined}
          {...form.register(`endpoints.${index}.name`, {
            validate: (value) => value.trim() !== '' || 'Enter a name.',
            maxLength: { value: 200, message: 'At most 200 characters.' },
          })}
        />
        {errors?.name && <span className="field-error">{errors.name.message}</span>}
      </label>
      <label>
        URL
        <input
          type="url"
          inputMode="url"
          autoComplete="off"
          aria-invalid={errors?.url ? true : undefined}
          {...form.register(`endpoints.${index}.url`, {
            validate: (value) => isHttpUrl(value) || 'Enter an http:// or https:// address.',
            maxLength: { value: 2048, message: 'At most 2048 characters.' },
          })}
        />
        {errors?.url && <span className="field-error">{errors.url.message}</span>}
      </label>
      <fieldset>
        <legend>Send with each request</legend>
        {forwardings.map(({ key, label }) => (
          <label key={key} className="inline">
            <input type="checkbox" {...form.register(`endpoints.${index}.authz_forwarding.${key}`)} /> {label}
          </label>
        ))}
      </fieldset>
      <button type="button" className="button secondary" onClick={onRemove}>
        Remove endpoint {number}
      </button>
    </fieldset>
  );
}
