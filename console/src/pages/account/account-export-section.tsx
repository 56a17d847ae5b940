// The account export: the ZIP the API streams, counted as it arrives and collected into a Blob,
// which the browser may keep on disk rather than in memory, then saved under the server's name.
import type { Me } from '@groundcheck/sdk';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api } from '../../api/client';
import { ProblemMessage } from '../../ui/problem-message';
import { saveFile } from '../../ui/save-file';

const kilobytes = new Intl.NumberFormat(undefined, { style: 'unit', unit: 'kilobyte', maximumFractionDigits: 0 });
const megabytes = new Intl.NumberFormat(undefined, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1 });
const size = (bytes: number) => (bytes < 1_000_000 ? kilobytes.format(Math.ceil(bytes / 1000)) : megabytes.format(bytes / 1_000_000));

export function AccountExportSection({ me }: { me: Me }) {
  const headingId = useId();
  const [received, setReceived] = useState(0);
  const download = useMutation({
    mutationFn: async () => {
      setReceived(0);
      const bundle = await api.account.export();
      let bytes = 0;
      const counted = bundle.body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            bytes += chunk.byteLength;
            setReceived(bytes);
            controller.enqueue(chunk);
          },
        }),
      );
      const blob = await new Response(counted, { headers: { 'content-type': 'application/zip' } }).blob();
      saveFile(blob, bundle.fileName ?? `account-${me.customer.customer_id}.zip`);
      return blob.size;
    },
  });
  return (
    <section aria-labelledby={headingId} className="card stack">
      <h2 id={headingId}>Export the account</h2>
      <p>
        A ZIP of the account's data as JSON Lines: users (without passwords), source groups, templates, the history and, with the audit
        trail, its events, with a manifest. Stored files are listed by name and hash, not included.
      </p>
      <div>
        <button type="button" className="button secondary" onClick={() => download.mutate()} disabled={download.isPending}>
          {download.isPending ? 'Downloading…' : 'Download the export'}
        </button>
      </div>
      {download.isPending && <output>Received {size(received)}…</output>}
      {download.isSuccess && <output className="notice">The export ({size(download.data)}) is downloaded.</output>}
      {download.isError && <ProblemMessage error={download.error} />}
    </section>
  );
}
