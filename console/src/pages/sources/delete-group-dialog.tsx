// Deleting a group, with or without its stored files (kept, detached, unless purged).
import type { SourceGroup } from '@groundcheck/sdk';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client';
import { ConfirmDialog } from './confirm-dialog';

export function DeleteGroupDialog({
  group,
  onClose,
  onDeleted,
}: {
  group: SourceGroup;
  onClose: () => void;
  onDeleted: (message: string) => void;
}) {
  const [purge, setPurge] = useState(true);
  const remove = useMutation({
    mutationFn: async () => await api.sources.deleteGroup({ group_id: group.group_id, purge_files: purge }),
    onSuccess: () => onDeleted(`${group.name} deleted.`),
  });
  return (
    <ConfirmDialog
      title={`Delete ${group.name}?`}
      confirmLabel="Delete group"
      pending={remove.isPending}
      error={remove.error}
      onConfirm={() => remove.mutate()}
      onClose={onClose}
    >
      <p>Validations can no longer use the group. This cannot be undone.</p>
      {group.files.length > 0 && (
        <label className="inline">
          <input type="checkbox" checked={purge} onChange={(event) => setPurge(event.target.checked)} /> Also delete its{' '}
          {group.files.length === 1 ? 'file' : `${group.files.length} files`} from storage
        </label>
      )}
    </ConfirmDialog>
  );
}
