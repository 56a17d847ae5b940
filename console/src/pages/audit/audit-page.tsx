// The audit trail (admin, feature audit_trail): filtered and paged from the API, exported, and its
// hash chain verified in the browser. A person the API refuses sees its refusal and nothing else.
import { type Me, PermissionError } from '@groundcheck/sdk';
import { useMemo } from 'react';
import { useOutletContext, useSearchParams } from 'react-router';
import { Page } from '../../ui/page';
import { ProblemMessage } from '../../ui/problem-message';
import { AuditExports } from './audit-exports';
import { AuditTrailTable } from './audit-trail-table';
import { ChainCheck } from './chain-check';
import { filtersFrom, paramsFrom, queryFrom, rangeFrom, type TrailFilters } from './trail-filters';
import { TrailFiltersForm } from './trail-filters-form';
import { useAuditTrail } from './use-audit-trail';

export function AuditPage() {
  const me = useOutletContext<Me>();
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersFrom(params), [params]);
  const query = useMemo(() => queryFrom(filters), [filters]);
  const range = useMemo(() => rangeFrom(filters), [filters]);
  const trail = useAuditTrail(query);
  const apply = (next: TrailFilters) => setParams(paramsFrom(next));
  if (trail.error instanceof PermissionError) {
    return (
      <Page title="Audit">
        <ProblemMessage error={trail.error} />
      </Page>
    );
  }
  return (
    <Page title="Audit">
      <p className="muted">
        Every recorded decision of {me.customer.name}, in the order it was written. Events cannot be changed or removed.
      </p>
      <TrailFiltersForm filters={filters} onApply={apply} />
      <h2>Events</h2>
      <AuditTrailTable trail={trail} />
      <div className="grid audit-tools">
        <ChainCheck range={range} />
        <AuditExports range={range} customerId={me.customer.customer_id} />
      </div>
    </Page>
  );
}
