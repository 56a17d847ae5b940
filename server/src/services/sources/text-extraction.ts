// Plain text for retrieval from an uploaded file, within a time and memory budget: each file is
// parsed in a child process that is killed when it runs too long or grows too large, so a hostile
// PDF costs at most one budget and never blocks or crashes the server.
import { docxContentType, sniffLength, sniffMatches, textContentTypes } from './content-sniff.js';
import type { ExtractionLimits, ExtractionResult } from './format-extractors.js';
import { runIsolated, siblingModule } from './isolated-run.js';

export type { ExtractionFailureReason, ExtractionResult } from './format-extractors.js';

/**
 * Bumped whenever extraction output changes, so text cached under a file's SHA-256 (together with
 * this version) is extracted again rather than served stale.
 */
export const extractorVersion = 1;

export interface ExtractionBudget extends ExtractionLimits {
  timeoutMs: number;
  /** Files larger than this are not parsed at all. */
  maxInputBytes: number;
  /** The parser's heap; past it the parser is stopped and the result is `out_of_memory`. */
  maxMemoryMb: number;
}

export const defaultExtractionBudget: ExtractionBudget = {
  timeoutMs: 20_000,
  maxInputBytes: 52_428_800, // the contract's largest source file
  maxMemoryMb: 512,
  maxChars: 5_000_000,
  maxPdfPages: 2_000,
};

/** The contract's source content types (`SourceUploadUrlRequest.content_type`). */
export const extractableContentTypes: ReadonlySet<string> = new Set(['application/pdf', docxContentType, ...textContentTypes]);

const extractorModule = siblingModule(import.meta.url, 'format-extractors');

/**
 * The text of one file, or a typed failure; never throws for anything the file contains. The type
 * must be one the contract accepts for sources, and the bytes must match it.
 */
export async function extractText(
  bytes: Uint8Array,
  contentType: string,
  budget: Partial<ExtractionBudget> = {},
): Promise<ExtractionResult> {
  const limits = { ...defaultExtractionBudget, ...budget };
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (!extractableContentTypes.has(type)) {
    return { ok: false, reason: 'unsupported_type', detail: `No text extraction for ${type}.` };
  }
  if (bytes.byteLength > limits.maxInputBytes) {
    return { ok: false, reason: 'too_large', detail: `The file is larger than ${limits.maxInputBytes} bytes.` };
  }
  if (!sniffMatches(type, bytes.subarray(0, sniffLength))) {
    return { ok: false, reason: 'content_mismatch', detail: `The file's content does not match ${type}.` };
  }
  const parserLimits: ExtractionLimits = { maxChars: limits.maxChars, maxPdfPages: limits.maxPdfPages };
  const run = await runIsolated<ExtractionResult>({
    module: extractorModule,
    exportName: 'extractInProcess',
    args: [bytes, type, parserLimits],
    timeoutMs: limits.timeoutMs,
    maxMemoryMb: limits.maxMemoryMb,
  });
  if (run.ok) return run.value;
  if (run.reason === 'crashed') return { ok: false, reason: 'invalid_file', detail: `The parser stopped on this file: ${run.detail}` };
  return { ok: false, reason: run.reason, detail: `Extraction stopped: ${run.detail}` };
}
