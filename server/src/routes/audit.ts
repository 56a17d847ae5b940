import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';
import { principalOf } from '../http/context.js';
import type { AuditExporter } from '../services/audit-export.js';
import type { AuditTrail } from '../services/audit-trail.js';
import type { SystemCardService } from '../services/system-card.js';
import type { RouteTable } from './route-table.js';

export interface AuditServices {
  trail: AuditTrail;
  exporter: AuditExporter;
  systemCard: SystemCardService;
}

export function auditRoutes({ trail, exporter, systemCard }: AuditServices): RouteTable {
  return {
    listAuditEvents: async (req, res) => {
      res.json(await trail.list(principalOf(req.ctx).tenant.customerId, req.body ?? {}));
    },
    exportAuditEvents: async (req, res) => {
      const file = await exporter.open(principalOf(req.ctx).tenant.customerId, req.body ?? {});
      res.attachment(file.filename);
      res.setHeader('Content-Type', file.contentType);
      await stream(file.body, res);
    },
    getSystemCard: (req, res) => {
      res.json(systemCard.describe(principalOf(req.ctx).tenant));
    },
  };
}

/**
 * Sends the chunks as they come, waiting while the client is slower than the store. A client
 * that goes away stops the reading; a store failure mid-way cuts the connection, so a truncated
 * document never looks complete.
 */
async function stream(chunks: AsyncIterable<string>, res: Response): Promise<void> {
  try {
    await pipeline(Readable.from(chunks, { highWaterMark: 1 }), res);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE' && res.destroyed) return;
    throw error;
  }
}
