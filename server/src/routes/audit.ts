import type { AuditExporter } from '../services/audit/audit-export.js';
import type { AuditTrail } from '../services/audit/audit-trail.js';
import type { SystemCardService } from '../services/audit/system-card.js';
import { callerOf } from '../services/call-context.js';
import { type OperationTable, Streamed } from './operation.js';

export interface AuditServices {
  trail: AuditTrail;
  exporter: AuditExporter;
  systemCard: SystemCardService;
}

export function auditOperations({ trail, exporter, systemCard }: AuditServices) {
  return {
    listAuditEvents: async (body, ctx) => trail.list(callerOf(ctx), body),
    exportAuditEvents: async (body, ctx) => {
      const file = await exporter.open(callerOf(ctx), body);
      return new Streamed(file.contentType, file.body, file.filename);
    },
    getSystemCard: async (_body, ctx) => systemCard.describe(callerOf(ctx)),
  } satisfies OperationTable;
}
