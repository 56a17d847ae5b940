// The chain check, loaded only when a person asks for it: every event of the range, page after page
// in sequence order, through the SDK's verifyAuditChain. Each page is checked with the last event of
// the page before prepended, so the link and the sequence across the pages' seam are checked too,
// and only one page is held at a time however long the trail is.
import { type AuditChainResult, type AuditEvent, verifyAuditChain } from '@groundcheck/sdk';
import { api } from '../../api/client';
import type { DateRange } from './trail-filters';

const pageSize = 100;

export type ChainVerdict =
  | { intact: true; checked: number; firstSequence: number | null; lastSequence: number | null }
  | {
      intact: false;
      /** Events of the range verified before the bad one; also the bad one's 0-based index in the range. */
      checked: number;
      reason: Extract<AuditChainResult, { valid: false }>['reason'];
      event: AuditEvent;
      /** The event received just before the bad one, if any. */
      before: AuditEvent | undefined;
    };

type BrokenChain = Extract<ChainVerdict, { intact: false }>;

/** Verifies events handed over page after page as one chain, holding only the last event verified. */
class ChainWalk {
  checked = 0;
  firstSequence: number | null = null;
  private last: AuditEvent | undefined;

  get lastSequence(): number | null {
    return this.last?.sequence ?? null;
  }

  async next(page: AuditEvent[]): Promise<BrokenChain | null> {
    const events = this.last ? [this.last, ...page] : page;
    // `last` was verified with the page before; its own prev_hash is the hash it must follow.
    const result = await verifyAuditChain(events, this.last ? { previousHash: this.last.prev_hash } : {});
    if (!result.valid) {
      const offset = this.last ? this.checked - 1 : this.checked;
      const at = result.checked;
      return { intact: false, checked: offset + at, reason: result.reason, event: events[at]!, before: events[at - 1] };
    }
    this.firstSequence ??= page[0]?.sequence ?? null;
    this.checked += page.length;
    this.last = page.at(-1) ?? this.last;
    return null;
  }
}

async function* pagesOf(range: DateRange, signal: AbortSignal): AsyncGenerator<AuditEvent[]> {
  let cursor: string | undefined;
  do {
    const page = await api.audit.list({ ...range, limit: pageSize, ...(cursor && { cursor }) }, { abortSignal: signal });
    yield page.data;
    cursor = page.has_more && page.next_cursor && page.next_cursor !== cursor ? page.next_cursor : undefined;
  } while (cursor);
}

export async function verifyTrail(range: DateRange, onProgress: (checked: number) => void, signal: AbortSignal): Promise<ChainVerdict> {
  const walk = new ChainWalk();
  for await (const page of pagesOf(range, signal)) {
    const broken = await walk.next(page);
    if (broken) return broken;
    onProgress(walk.checked);
  }
  return { intact: true, checked: walk.checked, firstSequence: walk.firstSequence, lastSequence: walk.lastSequence };
}
