// Deleting one file of a group: from the inventory and from storage.
import type { SourceFile, SourceGroup } from '@groundcheck/sdk';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../api/client';
import { ConfirmDialog } from './confirm-dialog';

export function DeleteFileDialog({
  group,
  file,
  onClose,
  onDeleted,
}: {
  group: SourceGroup;
  file: SourceFile;
  onClose: () => void;
  onDeleted: (message: string) => void;
}) {
  const remove = useMutation({
    mutationFn: async () => await api.sources.deleteFile({ group_id: group.group_id, file_id: file.file_id }),
    onSuccess: () => onDeleted(`${file.name} deleted from ${group.name}.`),
  });
  return (
    <ConfirmDialog
      title={`Delete ${file.name}?`}
      confirmLabel="Delete file"
      pending={remove.isPending}
      error={remove.error}
      onConfirm={() => remove.mutate()}
      onClose={onClose}
    >
      <p>The file is removed from {group.name} and from storage; validations no longer check against it.</p>
    </ConfirmDialog>
  );
}
