// Document templates (admins, tenant feature `document_templates`): upload a file with
// {{placeholders}}, scan it, shape its fields, activate it, delete it. Without the feature or the
// role, the server's refusal is the screen's content.
import type { Template } from '@groundcheck/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api } from '../../api/client';
import { Page } from '../../ui/page';
import { DeleteTemplateDialog } from './delete-template-dialog';
import { TemplateProblem } from './problem-hint';
import { TemplateCard } from './template-card';
import { TemplateUploadForm } from './template-upload-form';

/** How often the list is read again while an upload of this page waits for the server's check. */
const checkPollMs = 1000;

export function TemplatesPage() {
  const queryClient = useQueryClient();
  const uploadHeadingId = useId();
  const listHeadingId = useId();
  const [watched, setWatched] = useState<ReadonlySet<string>>(new Set());
  const [deleting, setDeleting] = useState<Template | null>(null);
  const [notice, setNotice] = useState('');
  const templates = useQuery({
    queryKey: ['templates'],
    queryFn: async () => (await api.templates.list()).data,
    refetchInterval: (query) =>
      query.state.data?.some((template) => watched.has(template.template_id) && template.status === 'awaiting_upload')
        ? checkPollMs
        : false,
  });
  if (templates.isError) {
    return (
      <Page title="Templates">
        <TemplateProblem error={templates.error} />
      </Page>
    );
  }
  return (
    <Page title="Templates">
      <p className="muted">Documents with {'{{placeholders}}'} that answers can be generated into.</p>
      {notice && <output className="notice">{notice}</output>}
      <section className="card stack template-add" aria-labelledby={uploadHeadingId}>
        <h2 id={uploadHeadingId}>Add a template</h2>
        <TemplateUploadForm
          onUploaded={(signed) => {
            setWatched((current) => new Set(current).add(signed.template_id));
            setNotice('Template uploaded. Scan it to find its placeholders.');
            void queryClient.invalidateQueries({ queryKey: ['templates'] });
          }}
        />
      </section>
      <section className="stack" aria-labelledby={listHeadingId}>
        <h2 id={listHeadingId}>Your templates</h2>
        {templates.isPending && <p aria-busy="true">Loading…</p>}
        {templates.data?.length === 0 && <p>No templates yet.</p>}
        {templates.data?.map((template) => (
          <TemplateCard key={template.template_id} template={template} onDelete={setDeleting} onNotice={setNotice} />
        ))}
      </section>
      {deleting && (
        <DeleteTemplateDialog
          template={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={async () => {
            await queryClient.invalidateQueries({ queryKey: ['templates'] });
            setNotice(`${deleting.name} deleted.`);
            setDeleting(null);
          }}
        />
      )}
    </Page>
  );
}
