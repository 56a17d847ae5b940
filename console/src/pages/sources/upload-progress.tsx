// How far an upload has gone: a progress bar named after the file, and the same in words.
import type { UploadProgress } from './put-with-progress';

export function UploadProgressBar({ fileName, progress, done }: { fileName: string; progress: UploadProgress; done: boolean }) {
  const percent = progress.total > 0 ? Math.round((progress.loaded / progress.total) * 100) : 0;
  return (
    <div className="upload-progress">
      <progress aria-label={`Upload of ${fileName}`} value={progress.loaded} max={Math.max(progress.total, 1)} />
      <span className="muted">{done ? `${fileName}: uploaded` : `${fileName}: ${percent}%`}</span>
    </div>
  );
}
