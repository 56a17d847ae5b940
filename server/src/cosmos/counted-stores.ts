// The source group and template stores, keeping the tenant's resource counters in step: after each
// write that succeeds, the difference between what was stored before and what is stored now is
// added to the counters. Every write of these resources goes through here, whichever service
// makes it (save, settle an upload, delete). The counters live in another container, so the two
// writes are not one transaction: a process that dies between them leaves the counts off by that write.
import type { Container } from '@azure/cosmos';
import type { ResourceCounters, ResourceDifference } from './resource-counters.js';
import { type SourceGroupRecord, SourceGroupStore } from './source-group-store.js';
import { type StoredTemplate, type TemplateRecord, TemplateStore } from './template-store.js';

type Footprint = ResourceDifference;

function difference(before: Footprint, after: Footprint): Footprint {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)] as (keyof Footprint)[]);
  return Object.fromEntries([...keys].map((key) => [key, (after[key] ?? 0) - (before[key] ?? 0)]));
}

function groupFootprint(group: SourceGroupRecord | null): Footprint {
  if (!group) return {};
  const ready = group.files.filter((file) => file.status === 'ready');
  return {
    'sources/groups': 1,
    'sources/files': ready.length,
    'sources/bytes': ready.reduce((sum, file) => sum + (file.size_bytes ?? 0), 0),
  };
}

function templateFootprint(template: TemplateRecord | null): Footprint {
  return template ? { 'templates/total': 1, 'templates/active': template.active ? 1 : 0 } : {};
}

export class CountedSourceGroupStore extends SourceGroupStore {
  constructor(
    container: Container,
    private readonly counters: ResourceCounters,
  ) {
    super(container);
  }

  override async create(group: SourceGroupRecord): Promise<SourceGroupRecord> {
    const created = await super.create(group);
    await this.counters.add(group.customer_id, groupFootprint(created));
    return created;
  }

  override async replace(previous: SourceGroupRecord, next: SourceGroupRecord): Promise<SourceGroupRecord> {
    const written = await super.replace(previous, next);
    await this.counters.add(next.customer_id, difference(groupFootprint(previous), groupFootprint(written)));
    return written;
  }

  override async delete(group: SourceGroupRecord): Promise<boolean> {
    const deleted = await super.delete(group);
    if (deleted) await this.counters.add(group.customer_id, difference(groupFootprint(group), {}));
    return deleted;
  }
}

export class CountedTemplateStore extends TemplateStore {
  constructor(
    container: Container,
    private readonly counters: ResourceCounters,
  ) {
    super(container);
  }

  override async create(record: TemplateRecord): Promise<StoredTemplate> {
    const created = await super.create(record);
    await this.counters.add(record.customer_id, templateFootprint(created.record));
    return created;
  }

  override async replace(previous: StoredTemplate, record: TemplateRecord): Promise<StoredTemplate | null> {
    const written = await super.replace(previous, record);
    if (written)
      await this.counters.add(record.customer_id, difference(templateFootprint(previous.record), templateFootprint(written.record)));
    return written;
  }

  override async delete(customerId: string, templateId: string): Promise<boolean> {
    // The store deletes by id: what is counted off is the version read just before.
    const before = await this.get(customerId, templateId);
    const deleted = await super.delete(customerId, templateId);
    if (deleted) await this.counters.add(customerId, difference(templateFootprint(before?.record ?? null), {}));
    return deleted;
  }
}
