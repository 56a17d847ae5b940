// The name and description that source groups and templates both carry, with the contract's bounds.
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';

export function NameAndDescription<Values extends FieldValues & { name: string; description: string }>({
  form,
}: {
  form: UseFormReturn<Values>;
}) {
  const { errors } = form.formState;
  return (
    <>
      <label>
        Name
        <input
          aria-invalid={errors.name ? true : undefined}
          {...form.register('name' as Path<Values>, {
            validate: (value: unknown) => String(value).trim() !== '' || 'Enter a name.',
            maxLength: { value: 200, message: 'At most 200 characters.' },
          })}
        />
        {errors.name && <span className="field-error">{String(errors.name.message)}</span>}
      </label>
      <label>
        Description
        <textarea {...form.register('description' as Path<Values>, { maxLength: { value: 2000, message: 'At most 2000 characters.' } })} />
        {errors.description && <span className="field-error">{String(errors.description.message)}</span>}
      </label>
    </>
  );
}
