// URL sources of a validation (section 2.1, decision row 31): each fetched through the outbound
// guard with the tenant's allowlist and its text extracted; a URL refused, failing, too large or of
// a type without text is skipped with its reason, never an error.
import { createHash } from 'node:crypto';
import type { SkippedSource } from '@groundcheck/contract';
import { createOutboundClient, OutboundRefusal, skippedSourceReason } from '../../outbound/index.js';
import type { Tenant } from '../../tenants/tenant.js';
import type { Extractor } from '../sources/extraction-cache.js';
import { extractableContentTypes } from '../sources/text-extraction.js';

export interface FetchedUrl {
  url: string;
  text: string;
  sha256: string;
}

/** A page per URL is enough for an answer's evidence; more would only slow the engine. */
const maxUrlBytes = 5 * 1024 * 1024;
const urlTimeoutMs = 10_000;

export async function fetchUrlSources(
  tenant: Tenant,
  urls: readonly string[],
  extract: Extractor,
  signal: AbortSignal,
): Promise<{ fetched: FetchedUrl[]; skipped: SkippedSource[] }> {
  const client = createOutboundClient({ allow: tenant.outboundAllow, totalTimeoutMs: urlTimeoutMs, maxBytes: maxUrlBytes });
  const outcomes = await Promise.all(urls.map((url) => fetchOne(client, url, extract, signal)));
  return {
    fetched: outcomes.flatMap((outcome) => ('text' in outcome ? [outcome] : [])),
    skipped: outcomes.flatMap((outcome) => ('reason' in outcome ? [outcome] : [])),
  };
}

async function fetchOne(
  client: ReturnType<typeof createOutboundClient>,
  url: string,
  extract: Extractor,
  signal: AbortSignal,
): Promise<FetchedUrl | SkippedSource> {
  const skip = (reason: SkippedSource['reason']): SkippedSource => ({ kind: 'url', reference: url, reason });
  let response: Awaited<ReturnType<typeof client.request>>;
  try {
    response = await client.request(url, { method: 'GET', signal, accept: [...extractableContentTypes] });
  } catch (error) {
    if (error instanceof OutboundRefusal) return skip(skippedSourceReason(error.reason));
    throw error;
  }
  const contentType = (response.headers['content-type'] ?? 'application/octet-stream').split(';')[0]!.trim().toLowerCase();
  const extracted = await extract(response.body, contentType);
  if (!extracted.ok) return skip(extracted.reason === 'too_large' ? 'too_large' : 'unsupported_content');
  return { url, text: extracted.text, sha256: createHash('sha256').update(response.body).digest('hex') };
}
