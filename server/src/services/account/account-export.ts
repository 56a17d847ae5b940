// POST /api/v1/account/export (section 4.7, decision row 37): the tenant's data as a ZIP of JSON
// Lines files, each line an object in the shape the API returns it, and a manifest with the
// tenant's settings (without secrets) and every file's record count and SHA-256. Every file is
// read from Cosmos page by page while the archive is sent, so memory does not grow with the tenant.

import type { AccountPages } from '../../cosmos/account-pages.js';
import type { AuditStore } from '../../cosmos/audit-store.js';
import type { UserStore } from '../../cosmos/user-store.js';
import { mapPages, readAhead } from '../../lib/pages.js';
import type { Caller } from '../call-context.js';
import { publicRecord } from '../history/public-record.js';
import { userView } from '../saas/user-view.js';
import { toSourceGroup } from '../sources/source-groups.js';
import { templateView } from '../templates/template-service.js';
import { type TenantSettings, tenantSettings } from './tenant-settings.js';
import { type BundledFile, type JsonLinesFile, zipBundle } from './zip-bundle.js';

/** `manifest.json`, the last entry of the bundle (described in the contract's `exportAccount`). */
export interface AccountExportManifest {
  schema_version: string;
  customer_id: string;
  generated_at: string;
  tenant: TenantSettings;
  files: BundledFile[];
}

/** The manifest's `schema_version` (additive changes bump the minor). */
export const accountExportSchemaVersion = '1.0';
/** Records per Cosmos page: few round trips, about a megabyte of history at most in memory. */
const defaultPageSize = 500;

export interface AccountExportFile {
  filename: string;
  contentType: string;
  body: AsyncIterable<Uint8Array>;
}

export interface AccountExporterOptions {
  users: UserStore;
  pages: AccountPages;
  audit: AuditStore;
  pageSize?: number;
}

export class AccountExporter {
  private readonly pageSize: number;

  constructor(private readonly deps: AccountExporterOptions) {
    this.pageSize = deps.pageSize ?? defaultPageSize;
  }

  /** Reads the first page of users before answering, so an unreachable store is a problem response, not a cut archive. */
  async open(ctx: Caller): Promise<AccountExportFile> {
    const { tenant } = ctx;
    const customerId = tenant.customerId;
    const generatedAt = ctx.clock.now();
    const size = this.pageSize;
    const users = await readAhead(this.deps.users.pages(customerId, size));
    const files: JsonLinesFile[] = [
      { name: 'users.jsonl', pages: () => mapPages(users, userView) },
      { name: 'source_groups.jsonl', pages: () => mapPages(this.deps.pages.sourceGroups(customerId, size), toSourceGroup) },
      { name: 'templates.jsonl', pages: () => mapPages(this.deps.pages.templates(customerId, size), templateView) },
      { name: 'history.jsonl', pages: () => mapPages(this.deps.pages.history(customerId, generatedAt, size), publicRecord) },
    ];
    if (tenant.features.audit_trail) files.push({ name: 'audit_events.jsonl', pages: () => this.deps.audit.events(customerId, {}, size) });
    const body = zipBundle({
      files,
      manifest: {
        name: 'manifest.json',
        content: (summaries): AccountExportManifest => ({
          schema_version: accountExportSchemaVersion,
          customer_id: customerId,
          generated_at: generatedAt.toISOString(),
          tenant: tenantSettings(tenant),
          files: summaries,
        }),
      },
      modifiedAt: generatedAt,
      signal: ctx.abortSignal,
    });
    const stamp = generatedAt.toISOString().slice(0, 19).replaceAll(':', '-');
    return { filename: `account-${customerId}-${stamp}.zip`, contentType: 'application/zip', body };
  }
}
