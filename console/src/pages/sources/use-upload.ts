// The two steps of every upload: ask the API where to put the file (which registers it), then send
// the bytes there with progress. The API's answer is kept, so that the page can follow the file.
import type { PresignedUpload } from '@groundcheck/sdk';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { putWithProgress, type UploadProgress } from './put-with-progress';

export function useUpload<Signed extends PresignedUpload>(sign: (file: File) => Promise<Signed>, onUploaded: (signed: Signed) => void) {
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const mutation = useMutation({
    mutationFn: async (file: File) => {
      setProgress(null);
      const signed = await sign(file);
      setProgress({ loaded: 0, total: file.size });
      await putWithProgress(signed, file, setProgress);
      return signed;
    },
    onSuccess: onUploaded,
  });
  return { ...mutation, progress };
}
