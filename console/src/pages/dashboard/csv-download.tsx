// Saves the daily series of the range as a CSV file, as the API writes it.
import { useMutation } from '@tanstack/react-query';
import { api } from '../../api/client';
import { ProblemMessage } from '../../ui/problem-message';
import { saveFile } from '../../ui/save-file';
import type { DayRange } from './day-range';

export function CsvDownload({ range, customerId }: { range: DayRange; customerId: string }) {
  const download = useMutation({
    mutationFn: async () => {
      const text = await api.analytics.csv(range);
      const filename = `analytics-${customerId}-${range.date_from}-${range.date_to}.csv`;
      saveFile(new Blob([text], { type: 'text/csv;charset=utf-8' }), filename);
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
