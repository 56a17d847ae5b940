// Document templates (section 4.3, decisions 1, 2, 74, 76): upload URL → file in storage →
// scan for placeholders → save schema and activate → delete. Admin only; the pipeline has checked
// the role and the `document_templates` feature before any of this runs.

import type {
  DeletedTemplate,
  FieldError,
  Placeholder,
  Template,
  TemplateList,
  TemplateSaveRequest,
  TemplateSchema,
  TemplateUploadUrl,
  TemplateUploadUrlRequest,
} from '@groundcheck/contract';
import type { ObjectStorage, TenantObjectStorage } from '../../blobs/object-storage.js';
import { type StoredTemplate, TemplateChangedError, type TemplateRecord, type TemplateStore } from '../../cosmos/template-store.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../errors.js';
import { checkedFileName } from '../../lib/file-names.js';
import { type Caller, idFor, writtenByEarlierTry } from '../call-context.js';
import { type PlaceholderScanResult, scanTemplate } from './placeholder-scan.js';
import { settleUpload, templateKey, templateMaxBytes } from './template-upload.js';

type UploadRequest = Omit<TemplateUploadUrlRequest, 'customer_id' | 'api_key'>;
type SaveRequest = Omit<TemplateSaveRequest, 'customer_id' | 'api_key'>;

/** Decision 76: a tenant holds at most 200 templates. */
export const maxTemplatesPerTenant = 200;
/** Attempts of one read-modify-write before giving up on a template that keeps changing. */
const writeAttempts = 5;
/** Blobs checked at once when a list finds several templates awaiting their file. */
const settleConcurrency = 4;

export type TemplateScanner = (bytes: Uint8Array, contentType: string) => Promise<PlaceholderScanResult>;

export interface TemplateServiceOptions {
  store: TemplateStore;
  storage: ObjectStorage;
  /** The isolated placeholder scan; tests may pass another. */
  scan?: TemplateScanner;
}

/** The contract's `Template` from a stored record: internal fields (declared size, blob version, expiry) stay inside. */
export function templateView(record: TemplateRecord): Template {
  return {
    template_id: record.id,
    name: record.name,
    description: record.description,
    status: record.status,
    active: record.active,
    file: {
      name: record.file.name,
      content_type: record.file.content_type,
      size_bytes: record.file.size_bytes,
      sha256: record.file.sha256,
    },
    placeholders: record.placeholders,
    schema: record.schema,
    rejection_reason: record.rejection_reason,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

const notFound = () => new NotFoundError('not_found', 'No template with this id.');

export class TemplateService {
  private readonly store: TemplateStore;
  private readonly storage: ObjectStorage;
  private readonly scanner: TemplateScanner;
  /** Creations of one tenant run one after another in this process, so the cap is counted exactly. */
  private readonly createQueues = new Map<string, Promise<unknown>>();

  constructor({ store, storage, scan = scanTemplate }: TemplateServiceOptions) {
    this.store = store;
    this.storage = storage;
    this.scanner = scan;
  }

  async list(ctx: Caller): Promise<TemplateList> {
    const all = await this.store.list(ctx.tenant.customerId);
    const settled: TemplateRecord[] = [];
    for (let at = 0; at < all.length; at += settleConcurrency) {
      const batch = await Promise.all(all.slice(at, at + settleConcurrency).map((stored) => this.settled(ctx, stored)));
      for (const stored of batch) if (stored) settled.push(stored.record);
    }
    // Newest first; ids are time-ordered, so they break ties within one millisecond.
    settled.sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
    return { data: settled.map(templateView) };
  }

  async get(ctx: Caller<{ id: string }>): Promise<Template> {
    return templateView((await this.load(ctx, ctx.path.id)).record);
  }

  async createUploadUrl(ctx: Caller, body: UploadRequest): Promise<TemplateUploadUrl> {
    const { customerId } = ctx.tenant;
    const fileName = checkedFileName(body.file_name);
    return this.serialised(customerId, async () => {
      const now = ctx.clock.now();
      const id = idFor(ctx, 'tpl', now);
      const presign = (signedAt: Date) =>
        this.tenantStorage(ctx).presignUpload(templateKey(id), {
          contentType: body.content_type,
          now: signedAt,
          // A new version may be uploaded to the same URL and scanned again (decision on template uploads).
          replaceable: true,
        });
      // A retry after a crash that had created the template: the same template, its URL signed as before.
      const created = await writtenByEarlierTry(ctx, () => this.store.get(customerId, id));
      if (created) return { template_id: id, ...(await presign(new Date(created.record.created_at))) };
      if ((await this.store.count(customerId)) >= maxTemplatesPerTenant) {
        throw new ConflictError('limit_reached', `A tenant holds at most ${maxTemplatesPerTenant} templates; delete one first.`);
      }
      const presigned = await presign(now);
      const at = now.toISOString();
      await this.store.create({
        id,
        customer_id: customerId,
        kind: 'template',
        name: body.name,
        description: body.description ?? null,
        status: 'awaiting_upload',
        active: false,
        file: {
          name: fileName,
          content_type: body.content_type,
          declared_size_bytes: body.size_bytes ?? null,
          size_bytes: null,
          sha256: null,
          etag: null,
        },
        upload_expires_at: presigned.expires_at,
        rejection_reason: null,
        placeholders: [],
        schema: null,
        created_at: at,
        updated_at: at,
      });
      ctx.log.info({ template_id: id }, 'template created, awaiting its file');
      return { template_id: id, ...presigned };
    });
  }

  /** Detects the placeholders of the stored file; the schema starts over as one string field per placeholder. */
  async scan(ctx: Caller<{ id: string }>): Promise<Template> {
    return this.update(ctx, ctx.path.id, async (record) => {
      if (record.status === 'awaiting_upload' || record.status === 'rejected') {
        throw new ConflictError('template_not_uploaded', uploadStateDetail(record));
      }
      const read = await this.tenantStorage(ctx).read(templateKey(record.id), {
        maxBytes: templateMaxBytes,
        ...(record.file.etag ? { ifMatch: record.file.etag } : {}),
      });
      if (!read.ok) {
        // The upload URL was still valid and the file was written again after it was checked: it
        // is a new upload, so back to `awaiting_upload` (inactive, nothing scanned) and the next
        // attempt checks the new bytes before scanning them.
        return {
          ...record,
          status: 'awaiting_upload',
          active: false,
          placeholders: [],
          schema: null,
          file: { ...record.file, size_bytes: null, sha256: null, etag: null },
        };
      }
      const result = await this.scanner(read.bytes, record.file.content_type);
      if (!result.ok) throw new ConflictError('template_scan_failed', result.detail);
      return { ...record, status: 'scanned', placeholders: result.placeholders, schema: result.schema };
    });
  }

  /** A partial update: name, description, schema and active, each only when sent. */
  async save(ctx: Caller<{ id: string }>, body: SaveRequest): Promise<Template> {
    return this.update(ctx, ctx.path.id, async (record) => {
      checkSave(record, body);
      return savedRecord(record, body);
    });
  }

  /** Deletes the stored file first: a template never disappears while its file stays behind. */
  async delete(ctx: Caller<{ id: string }>): Promise<DeletedTemplate> {
    const { customerId } = ctx.tenant;
    const stored = await this.store.get(customerId, ctx.path.id);
    if (!stored) throw notFound();
    await this.tenantStorage(ctx).delete(templateKey(stored.record.id));
    if (!(await this.store.delete(customerId, stored.record.id))) throw notFound();
    ctx.log.info({ template_id: stored.record.id }, 'template deleted with its file');
    return { template_id: stored.record.id, deleted: true };
  }

  private tenantStorage(ctx: Caller<unknown>): TenantObjectStorage {
    return this.storage.forTenant(ctx.tenant.customerId);
  }

  /** The template, its upload settled; 404 for an unknown id or another tenant's. */
  private async load(ctx: Caller<unknown>, templateId: string): Promise<StoredTemplate> {
    const stored = await this.store.get(ctx.tenant.customerId, templateId);
    const settled = stored && (await this.settled(ctx, stored));
    if (!settled) throw notFound();
    return settled;
  }

  /** Checks a template still awaiting its file and records the outcome; null when it was deleted meanwhile. */
  private async settled(ctx: Caller<unknown>, stored: StoredTemplate): Promise<StoredTemplate | null> {
    const next = await settleUpload(stored.record, this.tenantStorage(ctx), ctx.clock.now());
    if (!next) return stored;
    try {
      const written = await this.store.replace(stored, next);
      if (written && next.status === 'rejected') {
        ctx.log.info({ template_id: next.id, reason: next.rejection_reason }, 'template upload rejected');
      }
      return written;
    } catch (error) {
      // Another request settled or changed it first: its version is the one to show.
      if (error instanceof TemplateChangedError) return this.store.get(ctx.tenant.customerId, stored.record.id);
      throw error;
    }
  }

  /** Read (settled), change, write with the ETag read; starts over when another request wrote in between. */
  private async update(
    ctx: Caller<unknown>,
    templateId: string,
    change: (record: TemplateRecord) => Promise<TemplateRecord>,
  ): Promise<Template> {
    for (let attempt = 1; ; attempt += 1) {
      const stored = await this.load(ctx, templateId);
      const next = await change(stored.record);
      try {
        const written = await this.store.replace(stored, { ...next, updated_at: ctx.clock.now().toISOString() });
        if (!written) throw notFound();
        if (next.status === 'awaiting_upload' && stored.record.status !== 'awaiting_upload') {
          if (attempt >= writeAttempts) throw new ConflictError('template_not_uploaded', 'The file keeps changing; upload it once.');
          continue;
        }
        return templateView(written.record);
      } catch (error) {
        if (!(error instanceof TemplateChangedError) || attempt >= writeAttempts) throw error;
      }
    }
  }

  private serialised<T>(customerId: string, task: () => Promise<T>): Promise<T> {
    const run = (this.createQueues.get(customerId) ?? Promise.resolve()).then(task);
    const settled = run.catch(() => undefined);
    this.createQueues.set(customerId, settled);
    void settled.then(() => {
      if (this.createQueues.get(customerId) === settled) this.createQueues.delete(customerId);
    });
    return run;
  }
}

function uploadStateDetail(record: TemplateRecord): string {
  if (record.status === 'rejected') return `The uploaded file was rejected (${record.rejection_reason}); upload it as a new template.`;
  return 'No file has been uploaded yet: PUT it to the upload URL first.';
}

/** Only a scanned template can be activated or given a schema. */
function checkSave(record: TemplateRecord, body: SaveRequest): void {
  const scanned = record.status === 'scanned';
  if (body.active === true && !scanned) {
    throw new ConflictError('template_not_scanned', 'Scan the template before activating it.');
  }
  if (body.schema !== undefined) {
    if (!scanned) throw new ConflictError('template_not_scanned', 'Scan the template before saving its schema.');
    checkSchema(body.schema, record.placeholders);
  }
}

function savedRecord(record: TemplateRecord, body: SaveRequest): TemplateRecord {
  return {
    ...record,
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(body.schema !== undefined ? { schema: body.schema } : {}),
    ...(body.active !== undefined ? { active: body.active } : {}),
  };
}

/** Field names unique, each naming a placeholder of the scan (decision S22). */
function checkSchema(schema: TemplateSchema, placeholders: Placeholder[]): void {
  const known = new Set(placeholders.map((p) => p.name));
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  schema.fields.forEach((field, index) => {
    const pointer = `/schema/fields/${index}/name`;
    if (seen.has(field.name)) errors.push({ pointer, detail: `Field ${field.name} is defined twice.` });
    else if (!known.has(field.name)) errors.push({ pointer, detail: `The template has no placeholder {{${field.name}}}.` });
    seen.add(field.name);
  });
  if (errors.length > 0) {
    const shown = errors.slice(0, 20);
    const detail =
      errors.length > shown.length
        ? `${errors.length} invalid fields; the first ${shown.length} are listed.`
        : `The schema has ${errors.length} invalid field${errors.length === 1 ? '' : 's'}.`;
    throw new BadRequestError('invalid_request', detail, shown);
  }
}
