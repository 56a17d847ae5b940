// The dashboard: the tenant's counters now, and the analytics of a range of days with its CSV.
import type { Me } from '@groundcheck/sdk';
import { useMemo } from 'react';
import { useOutletContext, useSearchParams } from 'react-router';
import { hasRole } from '../../api/me';
import { Page } from '../../ui/page';
import { CsvDownload } from './csv-download';
import { rangeFromSearch, rangeToSearch } from './day-range';
import { RangeAnalytics } from './range-analytics';
import { RangeForm } from './range-form';
import { StatsCounters } from './stats-counters';

export function DashboardPage() {
  const me = useOutletContext<Me>();
  const [search, setSearch] = useSearchParams();
  const range = useMemo(() => rangeFromSearch(search), [search]);
  return (
    <Page title="Dashboard">
      <section>
        <h2>Now</h2>
        <StatsCounters />
      </section>
      <section>
        <h2>Analytics</h2>
        <div className="row range-bar">
          <RangeForm range={range} onChange={(next) => setSearch(rangeToSearch(next))} />
          <CsvDownload key={`${range.date_from}/${range.date_to}`} range={range} customerId={me.customer.customer_id} />
        </div>
        <RangeAnalytics range={range} showCalibration={hasRole(me.role, 'admin')} />
      </section>
    </Page>
  );
}
