// The template problems a person can act on, each with what to do next under the server's words.
import { GroundcheckError } from '@groundcheck/sdk';
import { ProblemMessage } from '../../ui/problem-message';

const hints: Record<string, string> = {
  template_not_uploaded: 'The file has not arrived, or it was rejected. Upload the file again as a new template and delete this one.',
  template_scan_failed:
    'The file could not be read as a template. Check that it opens in your word processor and has at most 200 {{placeholders}}, then upload it again.',
  template_not_scanned: 'Scan the template first: its fields come from the placeholders the scan finds.',
  feature_disabled: 'Document templates are not part of this account. Ask your Groundcheck operator to turn the feature on.',
  insufficient_role: 'Only admins manage document templates.',
};

export function TemplateProblem({ error }: { error: unknown }) {
  const hint = error instanceof GroundcheckError && error.code ? hints[error.code] : undefined;
  return (
    <div>
      <ProblemMessage error={error} />
      {hint && <p>{hint}</p>}
    </div>
  );
}
