// Sends a file to a signed upload URL. XMLHttpRequest, not fetch: only it reports how much of the
// request body has gone, which the progress bar shows.
import type { PresignedUpload } from '@groundcheck/sdk';

export interface UploadProgress {
  loaded: number;
  total: number;
}

/** The file store refused the upload or could not be reached: no problem body, so no GroundcheckError. */
export class UploadError extends Error {
  override name = 'UploadError';
}

export function putWithProgress(upload: PresignedUpload, file: Blob, onProgress: (progress: UploadProgress) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(upload.method, upload.upload_url);
    for (const [name, value] of Object.entries(upload.headers)) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => onProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : file.size });
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) {
        // A small file may go in one piece without a progress event: the bar still ends full.
        onProgress({ loaded: file.size, total: file.size });
        resolve();
      } else {
        reject(
          new UploadError(
            `The file store refused the upload (HTTP ${request.status}). Try again; if it keeps failing, tell your operator.`,
          ),
        );
      }
    };
    // A browser reports a refused cross-origin request (the storage account's CORS rule) only as a network error.
    request.onerror = () =>
      reject(
        new UploadError(
          'The upload did not reach the file store. Check your connection; if it persists, the storage account may not allow uploads from this site (its CORS rule).',
        ),
      );
    request.send(file);
  });
}
