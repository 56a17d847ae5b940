// A group's files: name, size and when it was added, and what the server's check made of each. Three
// columns, so that the table fits a phone without scrolling sideways.
import type { SourceFile } from '@groundcheck/sdk';
import { format, parseISO } from 'date-fns';
import { fileOutcome } from './file-outcome';
import { fileSize } from './file-size';

export function SourceFilesTable({ files, onDelete }: { files: SourceFile[]; onDelete: ((file: SourceFile) => void) | null }) {
  if (files.length === 0) return <p className="muted">No files yet.</p>;
  return (
    <div className="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">File</th>
            <th scope="col">Check</th>
            {onDelete && <th scope="col">Manage</th>}
          </tr>
        </thead>
        <tbody>
          {files.map((file) => {
            const outcome = fileOutcome(file);
            return (
              <tr key={file.file_id}>
                <th scope="row" className="file-name">
                  {file.name}
                  <span className="file-meta">
                    {fileSize(file.size_bytes)} · added{' '}
                    <time dateTime={file.created_at}>{format(parseISO(file.created_at), 'd MMM yyyy, HH:mm')}</time>
                  </span>
                </th>
                <td>
                  <span className={`status ${outcome.tone}`}>{outcome.label}</span>
                  {outcome.detail && <span className="file-meta">{outcome.detail}</span>}
                </td>
                {onDelete && (
                  <td>
                    <button type="button" className="button secondary" aria-label={`Delete ${file.name}`} onClick={() => onDelete(file)}>
                      Delete
                    </button>
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
