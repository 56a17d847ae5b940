// One template: its file, state and placeholders, and what an admin can do with it at that state.
import type { Template } from '@groundcheck/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { format, parseISO } from 'date-fns';
import { useId, useState } from 'react';
import { api } from '../../api/client';
import { fileSize } from '../sources/file-size';
import { TemplateProblem } from './problem-hint';
import { TemplateFieldsForm } from './template-fields-form';
import { templateState } from './template-state';

interface TemplateCardProps {
  template: Template;
  onDelete: (template: Template) => void;
  onNotice: (message: string) => void;
}

function placeholderList(template: Template): string {
  if (template.placeholders.length === 0) return 'none found';
  return template.placeholders.map((placeholder) => `${placeholder.name} (${placeholder.occurrences}×)`).join(', ');
}

function fieldList(template: Template): string {
  const fields = template.schema?.fields ?? [];
  if (fields.length === 0) return 'none';
  return fields.map((field) => `${field.name}: ${field.type}${field.required ? ', required' : ''}`).join('; ');
}

export function TemplateCard({ template, onDelete, onNotice }: TemplateCardProps) {
  const queryClient = useQueryClient();
  const headingId = useId();
  const [editing, setEditing] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['templates'] });
  const scan = useMutation({
    mutationFn: async () => await api.templates.scan(template.template_id),
    onSuccess: async (scanned) => {
      await refresh();
      onNotice(
        `${scanned.name}: ${scanned.placeholders.length === 1 ? '1 placeholder' : `${scanned.placeholders.length} placeholders`} found.`,
      );
    },
  });
  const activate = useMutation({
    mutationFn: async (active: boolean) => await api.templates.save(template.template_id, { active }),
    onSuccess: async (saved) => {
      await refresh();
      onNotice(saved.active ? `${saved.name} is active.` : `${saved.name} is no longer active.`);
    },
  });
  const problem = scan.error ?? activate.error;
  const scanned = template.status === 'scanned';
  return (
    <article className="card stack template-card" aria-labelledby={headingId}>
      <div className="card-head">
        <h3 id={headingId}>{template.name}</h3>
        {template.active && <span className="status supported">Active</span>}
      </div>
      {template.description && <p>{template.description}</p>}
      <dl className="template-facts">
        <div>
          <dt>File</dt>
          <dd>
            {template.file.name} · {fileSize(template.file.size_bytes)}
          </dd>
        </div>
        <div>
          <dt>State</dt>
          <dd>{templateState(template)}</dd>
        </div>
        {scanned && (
          <>
            <div>
              <dt>Placeholders</dt>
              <dd>{placeholderList(template)}</dd>
            </div>
            <div>
              <dt>Fields</dt>
              <dd>{fieldList(template)}</dd>
            </div>
          </>
        )}
        <div>
          <dt>Updated</dt>
          <dd>
            <time dateTime={template.updated_at}>{format(parseISO(template.updated_at), 'd MMM yyyy, HH:mm')}</time>
          </dd>
        </div>
      </dl>
      <div className="row">
        {(template.status === 'awaiting_upload' || template.status === 'uploaded') && (
          <button type="button" className="button" disabled={scan.isPending} onClick={() => scan.mutate()}>
            {scan.isPending ? 'Scanning…' : 'Scan'}
          </button>
        )}
        {scanned && !editing && (
          <button type="button" className="button secondary" onClick={() => setEditing(true)}>
            Edit fields
          </button>
        )}
        {scanned && (
          <button
            type="button"
            className="button secondary"
            disabled={activate.isPending}
            onClick={() => activate.mutate(!template.active)}
          >
            {template.active ? 'Deactivate' : 'Activate'}
          </button>
        )}
        {scanned && (
          <button type="button" className="button secondary" disabled={scan.isPending} onClick={() => scan.mutate()}>
            {scan.isPending ? 'Scanning…' : 'Scan again (resets the fields)'}
          </button>
        )}
        <button type="button" className="button danger" aria-label={`Delete ${template.name}`} onClick={() => onDelete(template)}>
          Delete
        </button>
      </div>
      {problem && <TemplateProblem error={problem} />}
      {editing && (
        <TemplateFieldsForm
          template={template}
          onDone={(message) => {
            setEditing(false);
            if (message) onNotice(message);
          }}
        />
      )}
    </article>
  );
}
