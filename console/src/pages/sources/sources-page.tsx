// Source groups: everyone sees the groups they may use, with their files and endpoints; admins
// create, change and delete groups, upload files and delete them. The server decides who may do
// what; the controls only follow the role it reported.
import type { Me, SourceFile, SourceGroup } from '@groundcheck/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useOutletContext } from 'react-router';
import { api } from '../../api/client';
import { hasRole } from '../../api/me';
import { Page } from '../../ui/page';
import { ProblemMessage } from '../../ui/problem-message';
import { DeleteFileDialog } from './delete-file-dialog';
import { DeleteGroupDialog } from './delete-group-dialog';
import { isSettled } from './file-outcome';
import { GroupFormDialog } from './group-form-dialog';
import { type GroupActions, SourceGroupCard } from './source-group-card';

/** How often the list is read again while an upload of this page waits for the server's check. */
const checkPollMs = 1000;

type Dialog =
  | { kind: 'edit'; group: SourceGroup | null }
  | { kind: 'delete-group'; group: SourceGroup }
  | { kind: 'delete-file'; group: SourceGroup; file: SourceFile };

export function SourcesPage() {
  const me = useOutletContext<Me>();
  const isAdmin = hasRole(me.role, 'admin');
  const queryClient = useQueryClient();
  const [watched, setWatched] = useState<ReadonlySet<string>>(new Set());
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [notice, setNotice] = useState('');
  const groups = useQuery({
    queryKey: ['sources'],
    queryFn: async () => (await api.sources.list()).data,
    refetchInterval: (query) =>
      query.state.data?.some((group) => group.files.some((file) => watched.has(file.file_id) && !isSettled(file))) ? checkPollMs : false,
  });
  const closeDialog = () => setDialog(null);
  const afterDelete = async (message: string) => {
    await queryClient.invalidateQueries({ queryKey: ['sources'] });
    setDialog(null);
    setNotice(message);
  };
  const actions: GroupActions | null = isAdmin
    ? {
        edit: (group) => setDialog({ kind: 'edit', group }),
        delete: (group) => setDialog({ kind: 'delete-group', group }),
        deleteFile: (group, file) => setDialog({ kind: 'delete-file', group, file }),
        uploaded: (fileId) => {
          setWatched((current) => new Set(current).add(fileId));
          void queryClient.invalidateQueries({ queryKey: ['sources'] });
        },
      }
    : null;
  return (
    <Page
      title="Sources"
      actions={
        isAdmin && (
          <button type="button" className="button" onClick={() => setDialog({ kind: 'edit', group: null })}>
            New group
          </button>
        )
      }
    >
      <p className="muted">
        {isAdmin
          ? 'The files and endpoints that validations check answers against, in groups. People use a group when one of their data-access roles is allowed.'
          : 'The source groups you may check answers against: their files and endpoints.'}
      </p>
      {notice && <output className="notice">{notice}</output>}
      {groups.isError && <ProblemMessage error={groups.error} />}
      {groups.isPending && <p aria-busy="true">Loading…</p>}
      {groups.data?.length === 0 && (
        <p>{isAdmin ? 'No source groups yet. Create one, then upload its files.' : 'No source group is open to you yet.'}</p>
      )}
      <div className="stack">
        {groups.data?.map((group) => (
          <SourceGroupCard key={group.group_id} group={group} actions={actions} />
        ))}
      </div>
      {dialog?.kind === 'edit' && (
        <GroupFormDialog
          group={dialog.group}
          onClose={closeDialog}
          onSaved={(saved) => {
            setDialog(null);
            setNotice(dialog.group ? `${saved.name} saved.` : `${saved.name} created.`);
          }}
        />
      )}
      {dialog?.kind === 'delete-group' && <DeleteGroupDialog group={dialog.group} onClose={closeDialog} onDeleted={afterDelete} />}
      {dialog?.kind === 'delete-file' && (
        <DeleteFileDialog group={dialog.group} file={dialog.file} onClose={closeDialog} onDeleted={afterDelete} />
      )}
    </Page>
  );
}
