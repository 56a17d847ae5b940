import type { AuditEvent, AuditEventPage, AuditExport, AuditExportRequest, SystemCard } from '@groundcheck/contract';
import { iteratePages } from '../pagination.js';
import { accepting, type RequestOptions, type Transport, unwrap } from '../request.js';
import type { WithResponse } from '../response.js';
import type { RequestBody } from '../types.js';

export type AuditExportParams = RequestBody<'AuditExportRequest'>;

/** What the service does and does not do, its method, limitations, data handling and region. */
export async function systemCard(transport: Transport, options?: RequestOptions): Promise<WithResponse<SystemCard>> {
  return unwrap(await transport.raw.POST('/api/v1/system-card', transport.init(options)));
}

/** The append-only audit trail (admin; feature `audit_trail`), oldest event first. */
export class Audit {
  constructor(private readonly transport: Transport) {}

  /** One page of events in `sequence` order, with the hash chain (`verifyAuditChain` checks it). */
  async list(query?: RequestBody<'AuditQuery'>, options?: RequestOptions): Promise<WithResponse<AuditEventPage>> {
    return unwrap(await this.transport.raw.POST('/api/v1/audit', { body: query, ...this.transport.init(options) }));
  }

  /** Every matching event, page after page: `for await (const event of client.audit.iterate({ ... }))`. */
  iterate(query: RequestBody<'AuditQuery'> = {}, options?: RequestOptions): AsyncGenerator<AuditEvent, void, undefined> {
    return iteratePages((page) => this.list(page, options), query);
  }

  /** Every event of a date range as one document: JSON (default) or, with `format: 'csv'`, CSV text. */
  export(body: AuditExportParams & { format: 'csv' }, options?: RequestOptions): Promise<string>;
  export(body?: AuditExportParams & { format?: 'json' }, options?: RequestOptions): Promise<WithResponse<AuditExport>>;
  async export(body?: AuditExportParams, options?: RequestOptions): Promise<string | WithResponse<AuditExport>> {
    const csv = body?.format === 'csv';
    return unwrap(
      await this.transport.raw.POST('/api/v1/audit/export', {
        body: body as AuditExportRequest | undefined,
        parseAs: csv ? 'text' : 'json',
        ...accepting(this.transport.init(options), csv ? 'text/csv' : 'application/json'),
      }),
    );
  }
}
