// A scanned template's details and fields: for each placeholder, whether the schema has it, its
// type, whether it is required, and a description for whoever fills it in.
import type { Template, TemplateFieldType } from '@groundcheck/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { api } from '../../api/client';
import { NameAndDescription } from '../../ui/name-and-description';
import { TemplateProblem } from './problem-hint';
import { type TemplateFormValues, templateFormValues, templateSaveRequest } from './template-form-values';

const types: Array<{ value: TemplateFieldType; label: string }> = [
  { value: 'string', label: 'Text' },
  { value: 'number', label: 'Number' },
  { value: 'date', label: 'Date' },
  { value: 'boolean', label: 'Yes or no' },
];

export function TemplateFieldsForm({ template, onDone }: { template: Template; onDone: (message: string | null) => void }) {
  const queryClient = useQueryClient();
  const headingId = useId();
  const form = useForm<TemplateFormValues>({ defaultValues: templateFormValues(template) });
  const save = useMutation({
    mutationFn: async (values: TemplateFormValues) => await api.templates.save(template.template_id, templateSaveRequest(values)),
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: ['templates'] });
      onDone(`The fields of ${saved.name} are saved.`);
    },
  });
  const { errors } = form.formState;
  return (
    <form
      className="stack fields-form"
      aria-labelledby={headingId}
      noValidate
      onSubmit={form.handleSubmit((values) => save.mutate(values))}
    >
      <h4 id={headingId}>Details and fields</h4>
      <NameAndDescription form={form} />
      {template.placeholders.length === 0 && <p>The scan found no {'{{placeholders}}'} in the file.</p>}
      {template.placeholders.map((placeholder, index) => (
        <fieldset key={placeholder.name} className="field-row">
          <legend>
            <code>{placeholder.name}</code>
          </legend>
          <label className="inline">
            <input type="checkbox" {...form.register(`fields.${index}.included`)} /> In the schema
          </label>
          <label>
            Type
            <select {...form.register(`fields.${index}.type`)}>
              {types.map((type) => (
                <option key={type.value} value={type.value}>
                  {type.label}
                </option>
              ))}
            </select>
          </label>
          <label className="inline">
            <input type="checkbox" {...form.register(`fields.${index}.required`)} /> Required
          </label>
          <label>
            Description
            <input {...form.register(`fields.${index}.description`, { maxLength: { value: 500, message: 'At most 500 characters.' } })} />
            {errors.fields?.[index]?.description && <span className="field-error">{errors.fields[index].description.message}</span>}
          </label>
        </fieldset>
      ))}
      {save.isError && <TemplateProblem error={save.error} />}
      <div className="row">
        <button type="submit" className="button" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save fields'}
        </button>
        <button type="button" className="button secondary" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
