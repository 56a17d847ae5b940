// The review queue and its history (viewer and above): the tenant's validations as the filters in
// the URL select them, newest first, each a link to its case.
import { useLocation, useSearchParams } from 'react-router';
import { Page } from '../../ui/page';
import { QueueFilterForm } from './queue-filter-form';
import { filtersFrom, paramsOf, type QueueFilters } from './queue-filters';
import { QueueResults } from './queue-results';

export function ReviewsPage() {
  const [params, setParams] = useSearchParams();
  const { search } = useLocation();
  const filters = filtersFrom(params);
  const apply = (next: QueueFilters) => setParams(paramsOf(next));
  return (
    <Page title="Reviews">
      <div className="stack">
        <QueueFilterForm filters={filters} onApply={apply} />
        {/* New filters start again from their first page. */}
        <QueueResults key={search} filters={filters} />
      </div>
    </Page>
  );
}
