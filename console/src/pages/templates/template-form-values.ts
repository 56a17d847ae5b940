// The template form's values: one row per scanned placeholder, included in the schema or left out
// (the contract allows both), and back to the save request.
import type { RequestBody, Template, TemplateFieldType } from '@groundcheck/sdk';

export interface FieldRow {
  name: string;
  included: boolean;
  type: TemplateFieldType;
  required: boolean;
  description: string;
}

export interface TemplateFormValues {
  name: string;
  description: string;
  fields: FieldRow[];
}

export function templateFormValues(template: Template): TemplateFormValues {
  const schemaFields = template.schema?.fields ?? [];
  return {
    name: template.name,
    description: template.description ?? '',
    fields: template.placeholders.map(({ name }) => {
      const field = schemaFields.find((candidate) => candidate.name === name);
      return {
        name,
        included: field !== undefined,
        type: field?.type ?? 'string',
        required: field?.required ?? true,
        description: field?.description ?? '',
      };
    }),
  };
}

export function templateSaveRequest(values: TemplateFormValues): RequestBody<'TemplateSaveRequest'> {
  return {
    name: values.name.trim(),
    description: values.description.trim() || null,
    schema: {
      fields: values.fields
        .filter((field) => field.included)
        .map(({ name, type, required, description }) => ({
          name,
          type,
          required,
          ...(description.trim() && { description: description.trim() }),
        })),
    },
  };
}
