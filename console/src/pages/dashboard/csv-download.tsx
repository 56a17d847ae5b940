// Saves the daily series of the range as a CSV file, as the API writes it.
import { useMutation } from '@tanstack/react-query';
import { api } from '../../api/client';
import { ProblemMessage } from '../../ui/problem-message';
import type { DayRange } from './day-range';

/** Hands text to the browser as a downloaded file, through a temporary object URL. */
function saveFile(text: string, filename: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next task: some browsers still read the URL after the click returns.
  setTimeout(() => URL.revokeObjectURL(url));
}

export function CsvDownload({ range, customerId }: { range: DayRange; customerId: string }) {
  const download = useMutation({
    mutationFn: async () => {
      const text = await api.analytics.csv(range);
      const filename = `analytics-${customerId}-${range.date_from}-${range.date_to}.csv`;
      saveFile(text, filename);
      return filename;
    },
  });
  return (
    <div className="stack csv-download">
      <button type="button" className="button secondary" onClick={() => download.mutate()} disabled={download.isPending}>
        {download.isPending ? 'Preparing the CSV…' : 'Download CSV'}
      </button>
      {download.isSuccess && <output className="notice">Saved {download.data}.</output>}
      {download.isError && <ProblemMessage error={download.error} />}
    </div>
  );
}
