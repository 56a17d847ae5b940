// Document templates of a tenant, one item each in the 'templates' container. Every write of an
// existing template carries the ETag it was read with, so two requests that change the same
// template at once cannot lose one another's change (the loser re-reads and tries again).
import type { Container } from '@azure/cosmos';
import type { Placeholder, TemplateRejectionReason, TemplateSchema, TemplateStatus } from '@groundcheck/contract';
import { cosmosOutcome } from './cosmos-status.js';
import type { StoredUpload } from './stored-upload.js';
import { countTenantItems, listTenantItems, readTenantItem } from './tenant-items.js';

export interface TemplateRecord {
  id: string;
  customer_id: string;
  kind: 'template';
  name: string;
  description: string | null;
  status: TemplateStatus;
  active: boolean;
  file: StoredUpload;
  /** When the upload URL stops working (ISO 8601). */
  upload_expires_at: string;
  rejection_reason: TemplateRejectionReason | null;
  placeholders: Placeholder[];
  schema: TemplateSchema | null;
  created_at: string;
  updated_at: string;
}

/** A record as read, with the ETag a replace must match. */
export interface StoredTemplate {
  record: TemplateRecord;
  etag: string;
}

/** Another request changed the template since it was read. */
export class TemplateChangedError extends Error {}

const cosmosFields = ['_rid', '_self', '_etag', '_attachments', '_ts'] as const;

function stored(resource: TemplateRecord & { _etag?: string }): StoredTemplate {
  const record = { ...resource } as TemplateRecord & Record<string, unknown>;
  for (const field of cosmosFields) delete record[field];
  return { record, etag: resource._etag ?? '' };
}

export class TemplateStore {
  constructor(private readonly container: Container) {}

  async get(customerId: string, templateId: string): Promise<StoredTemplate | null> {
    const resource = await readTenantItem<TemplateRecord>(this.container, customerId, templateId, 'template');
    return resource ? stored(resource) : null;
  }

  /** All of the tenant's templates (at most the cap, so one unpaged query). */
  async list(customerId: string): Promise<StoredTemplate[]> {
    return (await listTenantItems<TemplateRecord>(this.container, customerId, 'template')).map(stored);
  }

  async count(customerId: string): Promise<number> {
    return countTenantItems(this.container, customerId, 'template');
  }

  async create(record: TemplateRecord): Promise<StoredTemplate> {
    const { resource } = await this.container.items.create<TemplateRecord>({ ...record });
    return stored(resource as TemplateRecord);
  }

  /** Replaces the template if it is still the version read; throws `TemplateChangedError` otherwise, null when it is gone. */
  async replace(previous: StoredTemplate, record: TemplateRecord): Promise<StoredTemplate | null> {
    try {
      const { resource } = await this.container
        .item(record.id, record.customer_id)
        .replace<TemplateRecord>({ ...record }, { accessCondition: { type: 'IfMatch', condition: previous.etag } });
      return stored(resource as TemplateRecord);
    } catch (error) {
      const outcome = cosmosOutcome(error);
      if (outcome === 'precondition_failed') throw new TemplateChangedError(record.id);
      if (outcome === 'not_found') return null;
      throw error;
    }
  }

  /** True when a template was deleted, false when there was none. */
  async delete(customerId: string, templateId: string): Promise<boolean> {
    try {
      await this.container.item(templateId, customerId).delete();
      return true;
    } catch (error) {
      if (cosmosOutcome(error) === 'not_found') return false;
      throw error;
    }
  }
}
