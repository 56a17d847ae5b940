// What became of an uploaded file, in words: the server checks each file (size, type by its leading
// bytes) the next time the groups are listed, and only then is it ready for validations.
import type { SourceFile } from '@groundcheck/sdk';

type Rejection = NonNullable<SourceFile['rejection_reason']>;

const rejections: Record<Rejection, string> = {
  empty: 'the file is empty',
  too_large: 'the file is larger than 50 MB',
  size_mismatch: 'the file is not the size that was declared',
  content_mismatch: 'the content is not what its type says (for example a renamed file)',
};

export interface FileOutcome {
  label: string;
  /** The `.status` class: the verdict colours are reused, ready being the good one. */
  tone: 'supported' | 'contradicted' | 'pending';
  detail: string | null;
}

export function fileOutcome(file: SourceFile): FileOutcome {
  switch (file.status) {
    case 'ready':
      return { label: 'Ready', tone: 'supported', detail: null };
    case 'rejected':
      return { label: 'Rejected', tone: 'contradicted', detail: file.rejection_reason ? rejections[file.rejection_reason] : null };
    default:
      return { label: 'Waiting for the file', tone: 'pending', detail: null };
  }
}

export const isSettled = (file: SourceFile) => file.status !== 'awaiting_upload';
