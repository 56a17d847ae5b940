// Text extraction runs once per file: its outcome is kept in the tenant's storage under the file's
// SHA-256, so later validations read the text instead of parsing the file again. Blob storage rather
// than Cosmos because extracted text can outgrow a Cosmos item (2 MB).

import type { TenantObjectStorage } from '../../blobs/object-storage.js';
import type { Logger } from '../../logger.js';
import { docxContentType } from './content-sniff.js';
import { defaultExtractionBudget, type ExtractionResult, extractorVersion, extractText } from './text-extraction.js';

export type Extractor = (bytes: Uint8Array, contentType: string) => Promise<ExtractionResult>;

export interface FileToExtract {
  /** The SHA-256 the server computed when the upload completed. */
  sha256: string;
  contentType: string;
  /** The file's bytes (the checked version), or null when they can no longer be read. */
  readBytes: () => Promise<Uint8Array | null>;
}

/** An extraction outcome, or the file's bytes could not be read (deleted or replaced meanwhile). */
export type CachedExtraction = ExtractionResult | { ok: false; reason: 'unreadable'; detail: string };

/** Outcomes that may differ on a less busy machine, so they are never kept. */
const transientReasons: ReadonlySet<string> = new Set(['timeout', 'out_of_memory']);

/** The same bytes extract differently as HTML and as text, so the type is part of the name. */
const formatNames: Readonly<Record<string, string>> = {
  'application/pdf': 'pdf',
  [docxContentType]: 'docx',
  'text/html': 'html',
  'text/markdown': 'md',
  'text/csv': 'csv',
  'application/json': 'json',
  'text/plain': 'txt',
};

/** JSON of the largest text the extractor keeps, with every character escaped, fits. */
const maxCachedBytes = defaultExtractionBudget.maxChars * 6 + 4096;

const extractionPrefix = (sha256: string) => `extracted/${sha256}/`;

/** `extracted/<sha256>/v<extractor version>-<format>.json`, under the tenant's prefix. */
export function extractionKey(sha256: string, contentType: string): string {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return `${extractionPrefix(sha256)}v${extractorVersion}-${formatNames[type] ?? 'bin'}.json`;
}

function parseCached(bytes: Buffer): ExtractionResult | null {
  try {
    const value = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
    if (value.ok === true && typeof value.text === 'string' && typeof value.truncated === 'boolean') {
      return { ok: true, text: value.text, truncated: value.truncated };
    }
    if (value.ok === false && typeof value.reason === 'string' && typeof value.detail === 'string') {
      return value as ExtractionResult;
    }
  } catch {
    // A damaged entry is a miss: the file is extracted again and the entry rewritten.
  }
  return null;
}

export class ExtractionCache {
  /** Extractions under way in this process, so concurrent validations of one file parse it once. */
  private readonly inFlight = new Map<string, Promise<CachedExtraction>>();

  constructor(private readonly extract: Extractor = extractText) {}

  /** The file's text (or why there is none), extracting it only when no outcome is kept yet. */
  textOf(storage: TenantObjectStorage, file: FileToExtract, log: Logger): Promise<CachedExtraction> {
    const key = extractionKey(file.sha256, file.contentType);
    const flight = `${storage.customerId}/${key}`;
    let pending = this.inFlight.get(flight);
    if (!pending) {
      pending = this.load(storage, key, file, log).finally(() => this.inFlight.delete(flight));
      this.inFlight.set(flight, pending);
    }
    return pending;
  }

  private async load(storage: TenantObjectStorage, key: string, file: FileToExtract, log: Logger): Promise<CachedExtraction> {
    const cached = await storage.read(key, { maxBytes: maxCachedBytes });
    const kept = cached.ok ? parseCached(cached.bytes) : null;
    if (kept) return kept;
    const bytes = await file.readBytes();
    if (!bytes) return { ok: false, reason: 'unreadable', detail: 'The file could not be read; it was deleted or replaced.' };
    const result = await this.extract(bytes, file.contentType);
    if (result.ok || !transientReasons.has(result.reason)) {
      try {
        await storage.write(key, Buffer.from(JSON.stringify(result)), { contentType: 'application/json' });
      } catch (error) {
        // The text is still good for this validation; the next one extracts again.
        log.warn({ key, err: error }, 'extracted text could not be cached');
      }
    }
    return result;
  }
}

/** Drops the kept outcomes for these hashes (of deleted files that no other file of the tenant shares). */
export async function forgetExtractions(storage: TenantObjectStorage, sha256s: Iterable<string>): Promise<void> {
  for (const sha256 of new Set(sha256s)) await storage.deletePrefix(extractionPrefix(sha256));
}
