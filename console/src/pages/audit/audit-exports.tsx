// The trail's two exports, JSON and CSV, of the chosen dates, saved as files. The profile is the
// contract's: pseudonymized actors and summarized facts (enterprise_v1), or the events as stored.
import type { AuditExportParams } from '@groundcheck/sdk';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api } from '../../api/client';
import { ProblemMessage } from '../../ui/problem-message';
import { saveFile } from '../../ui/save-file';
import { type DateRange, rangeInWords } from './trail-filters';

type Profile = NonNullable<AuditExportParams['profile']>;
type Format = NonNullable<AuditExportParams['format']>;

const profileLabels: Record<Profile, string> = {
  enterprise_v1: 'Pseudonymized (enterprise_v1): actors as stable pseudonyms, notes reduced to their length',
  raw: 'As stored (raw): every field, including actor ids and notes',
};

/** A name that says whose trail and which dates; without dates the export covers the API's default window. */
function fileName(customerId: string, range: DateRange, profile: Profile, format: Format): string {
  const dates = range.date_from || range.date_to ? [range.date_from ?? 'start', range.date_to ?? 'today'].join('-to-') : 'last-30-days';
  return `audit-${customerId}-${dates}-${profile}.${format}`;
}

export function AuditExports({ range, customerId }: { range: DateRange; customerId: string }) {
  const headingId = useId();
  const profileName = useId();
  const [profile, setProfile] = useState<Profile>('enterprise_v1');
  const download = useMutation({
    mutationFn: async (format: Format) => {
      const blob =
        format === 'csv'
          ? new Blob([await api.audit.export({ ...range, profile, format })], { type: 'text/csv' })
          : new Blob([JSON.stringify(await api.audit.export({ ...range, profile, format }), null, 2)], { type: 'application/json' });
      saveFile(blob, fileName(customerId, range, profile, format));
    },
  });
  return (
    <section aria-labelledby={headingId} className="card stack">
      <h2 id={headingId}>Export</h2>
      <p>
        Every event {range.date_from || range.date_to ? rangeInWords(range) : 'of the last 30 days'}, in sequence order, whatever the other
        filters.
      </p>
      <fieldset>
        <legend>Profile</legend>
        {(Object.keys(profileLabels) as Profile[]).map((value) => (
          <label key={value} className="inline">
            <input type="radio" name={profileName} value={value} checked={profile === value} onChange={() => setProfile(value)} />{' '}
            {profileLabels[value]}
          </label>
        ))}
      </fieldset>
      <div className="row">
        <button type="button" className="button secondary" disabled={download.isPending} onClick={() => download.mutate('json')}>
          Download JSON
        </button>
        <button type="button" className="button secondary" disabled={download.isPending} onClick={() => download.mutate('csv')}>
          Download CSV
        </button>
        {download.isPending && <output>Preparing the export…</output>}
      </div>
      {download.isError && <ProblemMessage error={download.error} />}
    </section>
  );
}
