// POST /api/v1/history (section 4.5, decision row 33): the tenant's validation records, newest first,
// filtered (or one record by its id), in pages of `limit` (1-100, default 25) as the caller may see
// them (visibility.ts). The cursor names the last record of a page (created_at and id): the next
// page starts after it, so records made while a client pages never shift the pages it has still to read.

import type { HistoryQuery, ValidationRecordPage } from '@groundcheck/contract';
import type { HistoryStore } from '../../cosmos/history-store.js';
import type { SourceGroupStore } from '../../cosmos/source-group-store.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import { dayRange } from '../../lib/day-range.js';
import type { Caller } from '../call-context.js';
import { publicRecord } from './public-record.js';
import { visibilityOf } from './visibility.js';

const defaultLimit = 25;
const cursorKind = 'history';
const cursorShape = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z,val_[0-9A-Z]{26}$/;

export class HistoryService {
  constructor(
    private readonly history: HistoryStore,
    private readonly groups: SourceGroupStore,
  ) {}

  async list(ctx: Caller, query: HistoryQuery): Promise<ValidationRecordPage> {
    const range = dayRange(query.date_from, query.date_to);
    const limit = query.limit ?? defaultLimit;
    const { items, hasMore } = await this.history.page(
      ctx.tenant.customerId,
      {
        now: ctx.clock.now().toISOString(),
        userId: query.user_id,
        mode: query.mode,
        confidenceLevel: query.confidence_level,
        reviewState: query.review_state,
        validationId: query.validation_id,
        from: range.from,
        to: range.to,
        after: query.cursor === undefined ? undefined : positionOf(query.cursor),
        visibleTo: (await visibilityOf(ctx.principal, this.groups)) ?? undefined,
      },
      limit,
    );
    const last = items.at(-1);
    return {
      data: items.map(publicRecord),
      has_more: hasMore,
      next_cursor: hasMore && last ? encodeCursor(cursorKind, `${last.created_at},${last.id}`) : null,
    };
  }
}

function positionOf(cursor: string): { createdAt: string; id: string } {
  const [createdAt, id] = decodeCursor(cursor, cursorKind, cursorShape).split(',') as [string, string];
  return { createdAt, id };
}
