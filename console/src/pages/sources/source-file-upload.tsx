// Adding a file to a group: the file goes from the browser straight to storage through the URL the
// API signs, with its progress shown; then the page follows the server's check of it.
import type { SourceFile, SourceGroup } from '@groundcheck/sdk';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { api } from '../../api/client';
import { ProblemMessage } from '../../ui/problem-message';
import { sourceContentType, sourceExtensions } from './content-types';
import { fileOutcome, isSettled } from './file-outcome';
import { UploadProgressBar } from './upload-progress';
import { useUpload } from './use-upload';

/** The contract's limit on a source file. */
const maxBytes = 52_428_800;

function checkFile(files: FileList | null): true | string {
  const file = files?.[0];
  if (!file) return 'Choose a file.';
  if (!sourceContentType(file.name)) return `“${file.name}” is not a kind of file sources accept (${sourceExtensions}).`;
  if (file.size === 0) return `“${file.name}” is empty.`;
  if (file.size > maxBytes) return `“${file.name}” is larger than 50 MB.`;
  return true;
}

export function SourceFileUpload({ group, onUploaded }: { group: SourceGroup; onUploaded: (fileId: string) => void }) {
  const form = useForm<{ files: FileList | null }>({ defaultValues: { files: null } });
  const [fileId, setFileId] = useState<string | null>(null);
  const upload = useUpload(
    async (file) =>
      await api.sources.getUploadUrl({
        group_id: group.group_id,
        file_name: file.name,
        content_type: sourceContentType(file.name)!,
        size_bytes: file.size,
      }),
    (signed) => {
      setFileId(signed.file_id);
      onUploaded(signed.file_id);
      form.reset();
    },
  );
  const uploaded = group.files.find((file) => file.file_id === fileId);
  const error = form.formState.errors.files?.message;
  return (
    <form
      className="stack"
      noValidate
      onSubmit={form.handleSubmit(({ files }) => {
        setFileId(null);
        upload.mutate(files![0]!);
      })}
    >
      <div className="row file-picker">
        <label>
          Add a file to {group.name}
          <input
            type="file"
            accept={sourceExtensions}
            aria-invalid={error ? true : undefined}
            {...form.register('files', { validate: checkFile })}
          />
        </label>
        <button type="submit" className="button" disabled={upload.isPending}>
          {upload.isPending ? 'Uploading…' : 'Upload'}
        </button>
      </div>
      {error && <span className="field-error">{error}</span>}
      {upload.progress && upload.variables && (
        <UploadProgressBar fileName={upload.variables.name} progress={upload.progress} done={upload.isSuccess} />
      )}
      {upload.isError && <ProblemMessage error={upload.error} />}
      <output>{uploaded && outcomeSentence(uploaded.name, uploaded)}</output>
    </form>
  );
}

function outcomeSentence(name: string, file: SourceFile): string {
  if (!isSettled(file)) return `Checking ${name}…`;
  const outcome = fileOutcome(file);
  return outcome.detail
    ? `${name}: ${outcome.label.toLowerCase()}, ${outcome.detail}.`
    : `${name}: ${outcome.label.toLowerCase()} for validations.`;
}
