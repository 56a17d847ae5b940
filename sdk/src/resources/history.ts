import type { ReviewRequest, ValidationRecord, ValidationRecordPage } from '@groundcheck/contract';
import { iteratePages } from '../pagination.js';
import { type RequestOptions, type Transport, unwrap } from '../request.js';
import type { WithResponse } from '../response.js';
import type { RequestBody } from '../types.js';

/** Validation history, newest first, and the review actions on it. */
export class History {
  constructor(private readonly transport: Transport) {}

  /** One page of validation records; pass `next_cursor` back as `cursor` for the next. */
  async list(query?: RequestBody<'HistoryQuery'>, options?: RequestOptions): Promise<WithResponse<ValidationRecordPage>> {
    return unwrap(await this.transport.raw.POST('/api/v1/history', { body: query, ...this.transport.init(options) }));
  }

  /** Every matching record, page after page: `for await (const record of client.history.iterate({ ... }))`. */
  iterate(query: RequestBody<'HistoryQuery'> = {}, options?: RequestOptions): AsyncGenerator<ValidationRecord, void, undefined> {
    return iteratePages((page) => this.list(page, options), query);
  }

  /** Applies a review action (approve, reject, edit, handoff, external_approve, external_reject). */
  async review(
    validationId: string,
    body: RequestBody<'ReviewRequest'>,
    options?: RequestOptions,
  ): Promise<WithResponse<ValidationRecord>> {
    return unwrap(
      await this.transport.raw.POST('/api/v1/history/{id}/review', {
        params: { path: { id: validationId } },
        body: body as ReviewRequest,
        ...this.transport.init(options),
      }),
    );
  }
}
