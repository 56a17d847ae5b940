import type { AccountDeleteRequest, DeletedAccount } from '@groundcheck/contract';
import { errorFromResponse } from '../errors.js';
import { type RequestOptions, type Transport, unwrap } from '../request.js';
import { type ResponseInfo, responseInfo, type WithResponse } from '../response.js';

/** The account export as it arrives. */
export interface AccountExportDownload {
  /** The ZIP's bytes as they arrive; read it once (pipe it to a file or an HTTP response). */
  body: ReadableStream<Uint8Array>;
  /** The file name the server suggests (`Content-Disposition`). */
  fileName: string | null;
  lastResponse: ResponseInfo;
}

// account/* needs a signed-in admin's bearer token; API keys are not accepted here.

export class Account {
  constructor(private readonly transport: Transport) {}

  /**
   * The tenant's data as a ZIP of JSON Lines files, streamed: nothing is held in memory, and the
   * timeout covers only the wait for the download to start (`abortSignal` still cancels it).
   */
  async export(options?: RequestOptions): Promise<AccountExportDownload> {
    const { response, error } = await this.transport.raw.POST('/api/v1/account/export', {
      parseAs: 'stream',
      ...this.transport.streamingInit(options),
    });
    if (!response.ok || !response.body) throw errorFromResponse(response, error);
    const fileName = /filename="?([^";]+)"?/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? null;
    return { body: response.body, fileName, lastResponse: responseInfo(response) };
  }

  /**
   * Deletes all of the tenant's data; `confirmation` must be exactly `DELETE <customer_id>`. Never
   * retried: the tenant's credentials stop working the moment the deletion is accepted, so a retry
   * after a lost answer could only be refused. After a ConnectionError or TimeoutError, sign in again:
   * if that is refused, the deletion was accepted.
   */
  async delete(body: AccountDeleteRequest, options?: RequestOptions): Promise<WithResponse<DeletedAccount>> {
    return unwrap(await this.transport.raw.POST('/api/v1/account/delete', { body, ...this.transport.init({ ...options, maxRetries: 0 }) }));
  }
}
