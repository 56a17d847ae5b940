// A template's state in words, and what to do about it.
import type { Template, TemplateRejectionReason } from '@groundcheck/sdk';

const rejections: Record<TemplateRejectionReason, string> = {
  empty: 'the file is empty',
  too_large: 'the file is larger than 25 MB',
  size_mismatch: 'the file is not the size that was declared',
  content_mismatch: 'the content is not what its type says (for example a renamed file)',
  upload_expired: 'no file arrived before the upload link expired',
};

export function templateState(template: Template): string {
  switch (template.status) {
    case 'awaiting_upload':
      return 'Waiting for the file.';
    case 'uploaded':
      return 'Uploaded. Scan it to find its placeholders.';
    case 'scanned':
      return template.active ? 'Scanned and active.' : 'Scanned. Check its fields, then activate it.';
    case 'rejected':
      return `Rejected: ${template.rejection_reason ? rejections[template.rejection_reason] : 'the file failed the checks'}. Delete it and upload the file again.`;
  }
}
