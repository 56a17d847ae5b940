// Finds `{{name}}` / `{{ name }}` placeholders in a template and builds its initial schema.
import type { Placeholder, TemplateSchema } from '@groundcheck/contract';
import { decodeText, docxContentType, sniffLength, sniffMatches } from '../sources/content-sniff.js';
import { runIsolated, siblingModule } from '../sources/isolated-run.js';
import { DocxTooLarge, docxParagraphs } from './docx-paragraphs.js';

/** The contract's `TemplateUploadUrlRequest.content_type` values. */
export const templateContentTypes: ReadonlySet<string> = new Set([docxContentType, 'text/markdown', 'text/plain', 'text/html']);

/** The contract's field-name pattern and field limit (`TemplateSchema.fields`). */
const fieldNamePattern = /^[A-Za-z_][A-Za-z0-9_.]{0,99}$/;
const maxFields = 200;
const maxTemplateBytes = 26_214_400;
/** Anything between double braces, without braces inside; spaces around the name are allowed. */
const placeholderPattern = /\{\{\s*([^{}]{0,200}?)\s*\}\}/g;

export type PlaceholderScanFailure =
  | 'unsupported_type'
  | 'content_mismatch'
  | 'too_large'
  | 'invalid_file'
  | 'too_many_placeholders'
  | 'timeout'
  | 'out_of_memory';

export type PlaceholderScanResult =
  | {
      ok: true;
      /** Each name once, in order of first appearance, with its number of occurrences. */
      placeholders: Placeholder[];
      /** One required string field per placeholder: the initial `TemplateSchema`. */
      schema: TemplateSchema;
      /** Text in double braces that is not a valid field name (`{{ first name }}`), first 20, for a hint to the user. */
      invalid: string[];
    }
  | { ok: false; reason: PlaceholderScanFailure; detail: string };

/** Counts placeholders in text segments; a placeholder never spans two segments (paragraphs). */
export function countPlaceholders(segments: Iterable<string>): PlaceholderScanResult {
  const counts = new Map<string, number>();
  const invalid = new Set<string>();
  for (const segment of segments) {
    for (const match of segment.matchAll(placeholderPattern)) {
      const name = match[1]!;
      if (fieldNamePattern.test(name)) counts.set(name, (counts.get(name) ?? 0) + 1);
      else if (invalid.size < 20) invalid.add(name);
    }
  }
  if (counts.size > maxFields) {
    return {
      ok: false,
      reason: 'too_many_placeholders',
      detail: `The template has ${counts.size} placeholders; a schema holds at most ${maxFields}.`,
    };
  }
  const placeholders = [...counts].map(([name, occurrences]) => ({ name, occurrences }));
  return {
    ok: true,
    placeholders,
    schema: { fields: placeholders.map(({ name }) => ({ name, type: 'string', required: true })) },
    invalid: [...invalid],
  };
}

/** The scan itself, on the calling thread. `scanTemplate` runs it isolated, within a budget. */
export function scanPlaceholders(bytes: Uint8Array, contentType: string): PlaceholderScanResult {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (!templateContentTypes.has(type)) return { ok: false, reason: 'unsupported_type', detail: `Templates cannot be ${type}.` };
  if (bytes.byteLength > maxTemplateBytes)
    return { ok: false, reason: 'too_large', detail: `Templates are at most ${maxTemplateBytes} bytes.` };
  if (!sniffMatches(type, bytes.subarray(0, sniffLength))) {
    return { ok: false, reason: 'content_mismatch', detail: `The file's content does not match ${type}.` };
  }
  if (type !== docxContentType) return countPlaceholders(decodeText(bytes).split(/\r?\n|\r/));
  try {
    return countPlaceholders(docxParagraphs(bytes));
  } catch (error) {
    if (error instanceof DocxTooLarge) return { ok: false, reason: 'too_large', detail: error.message };
    return { ok: false, reason: 'invalid_file', detail: `The DOCX could not be read: ${(error as Error).message}`.slice(0, 500) };
  }
}

export interface ScanBudget {
  timeoutMs: number;
  maxMemoryMb: number;
}

const scanModule = siblingModule(import.meta.url, 'placeholder-scan');

/** `scanPlaceholders` in a separate process with a deadline and a heap limit, as for text extraction. */
export async function scanTemplate(
  bytes: Uint8Array,
  contentType: string,
  budget: ScanBudget = { timeoutMs: 15_000, maxMemoryMb: 512 },
): Promise<PlaceholderScanResult> {
  const run = await runIsolated<PlaceholderScanResult>({
    module: scanModule,
    exportName: 'scanPlaceholders',
    args: [bytes, contentType],
    ...budget,
  });
  if (run.ok) return run.value;
  if (run.reason === 'crashed') return { ok: false, reason: 'invalid_file', detail: `The scan stopped on this file: ${run.detail}` };
  return { ok: false, reason: run.reason, detail: `The scan stopped: ${run.detail}` };
}
