// The tenant's records for the account export, a page at a time with continuation tokens, so the
// export holds one page in memory whatever the size of the tenant. (Users come from UserStore and
// audit events from AuditStore, which read pages the same way.)
import type { Container, SqlParameter } from '@azure/cosmos';
import type { HistoryItem } from './history-store.js';
import type { SourceGroupRecord } from './source-group-store.js';
import type { TemplateRecord } from './template-store.js';

export class AccountPages {
  constructor(private readonly containers: { sources: Container; templates: Container; history: Container }) {}

  sourceGroups(customerId: string, pageSize: number): AsyncGenerator<SourceGroupRecord[]> {
    return pages<SourceGroupRecord>(
      this.containers.sources,
      customerId,
      'c.kind = @kind ORDER BY c.created_at ASC',
      [{ name: '@kind', value: 'source_group' }],
      pageSize,
    );
  }

  templates(customerId: string, pageSize: number): AsyncGenerator<TemplateRecord[]> {
    return pages<TemplateRecord>(
      this.containers.templates,
      customerId,
      'c.kind = @kind ORDER BY c.created_at ASC',
      [{ name: '@kind', value: 'template' }],
      pageSize,
    );
  }

  /**
   * Validation records not yet expired at `now` (expiry by ttl is not immediate), in storage order:
   * an ORDER BY would cost a sort of the whole partition for every page in the emulator and adds
   * nothing to an export.
   */
  history(customerId: string, now: Date, pageSize: number): AsyncGenerator<HistoryItem[]> {
    return pages<HistoryItem>(
      this.containers.history,
      customerId,
      'c.record = @record AND c.expires_at > @now',
      [
        { name: '@record', value: 'validation' },
        { name: '@now', value: now.toISOString() },
      ],
      pageSize,
    );
  }
}

async function* pages<T>(
  container: Container,
  customerId: string,
  condition: string,
  parameters: SqlParameter[],
  pageSize: number,
): AsyncGenerator<T[]> {
  const iterator = container.items.query<T>(
    {
      query: `SELECT * FROM c WHERE c.customer_id = @cid AND ${condition}`,
      parameters: [{ name: '@cid', value: customerId }, ...parameters],
    },
    { partitionKey: customerId, maxItemCount: pageSize },
  );
  while (iterator.hasMoreResults()) {
    const { resources } = await iterator.fetchNext();
    if (resources.length > 0) yield resources;
  }
}
