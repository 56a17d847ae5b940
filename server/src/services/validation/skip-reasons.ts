// What each reason a source was skipped means, in a sentence for the person reading a result (decision
// S101). `reason` is for code and never changes; this wording may. An unknown group and a forbidden one
// read alike, so that group ids cannot be probed.
import type { SkippedSource } from '@groundcheck/contract';

const sentences: Record<SkippedSource['reason'], string> = {
  access_denied: 'Not found or not accessible: this account has no source group with this id that you may use.',
  blocked_address: 'Its address is private or internal, which sources may reach only when the account allows it.',
  fetch_failed: 'It could not be fetched or read.',
  too_large: 'It is larger than a source may be.',
  unsupported_content: 'Its content type is not one that text can be extracted from.',
  extraction_failed: 'No text could be extracted from it (a scanned, damaged or protected file, or one that took too long).',
};

/** The skipped source with its reason in words. */
export function explained(skipped: SkippedSource): SkippedSource {
  return { ...skipped, detail: sentences[skipped.reason] };
}
