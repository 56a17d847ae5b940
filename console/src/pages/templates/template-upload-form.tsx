// Adding a template: its name and description, then the file, sent from the browser straight to
// storage through the URL the API signs, with its progress shown.
import type { TemplateUploadUrl } from '@groundcheck/sdk';
import { useForm } from 'react-hook-form';
import { api } from '../../api/client';
import { NameAndDescription } from '../../ui/name-and-description';
import { ProblemMessage } from '../../ui/problem-message';
import { templateContentType, templateExtensions } from '../sources/content-types';
import { UploadProgressBar } from '../sources/upload-progress';
import { useUpload } from '../sources/use-upload';

/** The contract's limit on a template file. */
const maxBytes = 26_214_400;

interface UploadValues {
  name: string;
  description: string;
  files: FileList | null;
}

function checkFile(files: FileList | null): true | string {
  const file = files?.[0];
  if (!file) return 'Choose a file.';
  if (!templateContentType(file.name)) return `“${file.name}” is not a kind of file templates can be (${templateExtensions}).`;
  if (file.size === 0) return `“${file.name}” is empty.`;
  if (file.size > maxBytes) return `“${file.name}” is larger than 25 MB.`;
  return true;
}

export function TemplateUploadForm({ onUploaded }: { onUploaded: (signed: TemplateUploadUrl) => void }) {
  const form = useForm<UploadValues>({ defaultValues: { name: '', description: '', files: null } });
  const upload = useUpload(
    async (file) => {
      const { name, description } = form.getValues();
      return await api.templates.getUploadUrl({
        name: name.trim(),
        ...(description.trim() && { description: description.trim() }),
        file_name: file.name,
        content_type: templateContentType(file.name)!,
        size_bytes: file.size,
      });
    },
    (signed) => {
      onUploaded(signed);
      form.reset();
    },
  );
  const { errors } = form.formState;
  return (
    <form className="stack" noValidate onSubmit={form.handleSubmit(({ files }) => upload.mutate(files![0]!))}>
      <NameAndDescription form={form} />
      <label>
        Template file (Word, Markdown, text or HTML, with {'{{placeholders}}'})
        <input
          type="file"
          accept={templateExtensions}
          aria-invalid={errors.files ? true : undefined}
          {...form.register('files', { validate: checkFile })}
        />
        {errors.files && <span className="field-error">{errors.files.message}</span>}
      </label>
      <div className="row">
        <button type="submit" className="button" disabled={upload.isPending}>
          {upload.isPending ? 'Uploading…' : 'Upload template'}
        </button>
      </div>
      {upload.progress && upload.variables && (
        <UploadProgressBar fileName={upload.variables.name} progress={upload.progress} done={upload.isSuccess} />
      )}
      {upload.isError && <ProblemMessage error={upload.error} />}
    </form>
  );
}
