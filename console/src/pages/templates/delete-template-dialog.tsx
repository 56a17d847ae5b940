// Deleting a template and its file.
import type { Template } from '@groundcheck/sdk';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../api/client';
import { ConfirmDialog } from '../sources/confirm-dialog';

export function DeleteTemplateDialog({ template, onClose, onDeleted }: { template: Template; onClose: () => void; onDeleted: () => void }) {
  const remove = useMutation({
    mutationFn: async () => await api.templates.delete(template.template_id),
    onSuccess: onDeleted,
  });
  return (
    <ConfirmDialog
      title={`Delete ${template.name}?`}
      confirmLabel="Delete template"
      pending={remove.isPending}
      error={remove.error}
      onConfirm={() => remove.mutate()}
      onClose={onClose}
    >
      <p>The template and its file are deleted. This cannot be undone.</p>
    </ConfirmDialog>
  );
}
