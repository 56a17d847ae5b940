// Why an outbound request was not made or not completed, as one typed error with a reason code.
import type { SkippedSource } from '@groundcheck/contract';

export type OutboundRefusalReason =
  | 'invalid_url'
  | 'scheme_not_allowed'
  | 'credentials_in_url'
  | 'address_not_allowed'
  | 'dns_failed'
  | 'connect_failed'
  | 'timeout'
  | 'aborted'
  | 'too_large'
  | 'too_many_redirects'
  | 'http_error'
  | 'unsupported_content_type';

export class OutboundRefusal extends Error {
  override readonly name = 'OutboundRefusal';

  constructor(
    readonly reason: OutboundRefusalReason,
    /** The URL of the hop that was refused (after redirects, the redirect target). */
    readonly url: string,
    detail: string,
    /** The HTTP status, for `http_error`. */
    readonly status?: number,
  ) {
    super(detail);
  }
}

type SkippedReason = SkippedSource['reason'];

/** The contract's `SkippedSource.reason` for a refusal, for `metadata.skipped_sources`. */
export function skippedSourceReason(reason: OutboundRefusalReason): SkippedReason {
  switch (reason) {
    case 'invalid_url':
    case 'scheme_not_allowed':
    case 'credentials_in_url':
    case 'address_not_allowed':
      return 'blocked_address';
    case 'too_large':
      return 'too_large';
    case 'unsupported_content_type':
      return 'unsupported_content';
    case 'dns_failed':
    case 'connect_failed':
    case 'timeout':
    case 'aborted':
    case 'too_many_redirects':
    case 'http_error':
      return 'fetch_failed';
  }
}
