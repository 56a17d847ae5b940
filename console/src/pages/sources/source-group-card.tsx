// One source group as everyone sees it (who may use it, its files and endpoints), with the
// managing controls for admins.
import type { AuthzForwarding, SourceEndpoint, SourceFile, SourceGroup } from '@groundcheck/sdk';
import { useId } from 'react';
import { SourceFileUpload } from './source-file-upload';
import { SourceFilesTable } from './source-files-table';

export interface GroupActions {
  edit(group: SourceGroup): void;
  delete(group: SourceGroup): void;
  deleteFile(group: SourceGroup, file: SourceFile): void;
  uploaded(fileId: string): void;
}

const forwarded: Record<keyof AuthzForwarding, string> = {
  user_id: 'user id',
  customer_id: 'customer id',
  data_access_roles: 'data-access roles',
  original_jwt: 'sign-in token',
};

function forwardedDetails(endpoint: SourceEndpoint): string {
  const sent = Object.entries(endpoint.authz_forwarding ?? {})
    .filter(([, on]) => on)
    .map(([key]) => forwarded[key as keyof AuthzForwarding]);
  return sent.length === 0 ? 'Sends nothing about the caller.' : `Sends the caller’s ${sent.join(', ')}.`;
}

function whoMayUse(roles: string[]): string {
  if (roles.length === 0) return 'everyone in the account';
  const list = new Intl.ListFormat('en', { type: 'disjunction' }).format(roles);
  return `people with the data-access role ${list}`;
}

export function SourceGroupCard({ group, actions }: { group: SourceGroup; actions: GroupActions | null }) {
  const headingId = useId();
  return (
    <section className="card stack source-group" aria-labelledby={headingId}>
      <div className="card-head">
        <h2 id={headingId}>{group.name}</h2>
        {actions && (
          <div className="row">
            <button type="button" className="button secondary" aria-label={`Edit ${group.name}`} onClick={() => actions.edit(group)}>
              Edit
            </button>
            <button type="button" className="button danger" aria-label={`Delete ${group.name}`} onClick={() => actions.delete(group)}>
              Delete
            </button>
          </div>
        )}
      </div>
      {group.description && <p>{group.description}</p>}
      <p>
        <strong>Who may use it: </strong>
        {whoMayUse(group.allowed_roles)}
      </p>
      <h3>Files</h3>
      <SourceFilesTable files={group.files} onDelete={actions && ((file) => actions.deleteFile(group, file))} />
      {actions && <SourceFileUpload group={group} onUploaded={actions.uploaded} />}
      <h3>Endpoints</h3>
      {group.endpoints.length === 0 ? (
        <p className="muted">No endpoints.</p>
      ) : (
        <ul className="endpoints">
          {group.endpoints.map((endpoint) => (
            <li key={`${endpoint.name} ${endpoint.url}`}>
              <strong>{endpoint.name}</strong> <code>{endpoint.url}</code>
              <span className="muted"> {forwardedDetails(endpoint)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
