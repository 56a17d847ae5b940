import type { ValidationRequest } from '@groundcheck/contract';
import { type RequestOptions, type Transport, unwrap } from '../request.js';
import type { WithResponse } from '../response.js';
import type { RequestBody, Validation } from '../types.js';

export interface ValidateOptions extends RequestOptions {
  /**
   * Makes retries safe: the server replays the first response for the same key (24 hours). The client
   * generates one per call when you do not; pass your own to deduplicate across processes or restarts.
   */
  idempotencyKey?: string;
}

/** Validates, generates, or validates and fixes an answer, as `mode` says. */
export async function validate(
  transport: Transport,
  body: RequestBody<'ValidationRequest'>,
  { idempotencyKey, ...options }: ValidateOptions = {},
): Promise<WithResponse<Validation>> {
  const params = idempotencyKey === undefined ? {} : { params: { header: { 'Idempotency-Key': idempotencyKey } } };
  return unwrap(await transport.raw.POST('/api/v1/validate', { body: body as ValidationRequest, ...params, ...transport.init(options) }));
}
