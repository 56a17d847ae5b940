// One extractor per source format. These run inside the extraction worker, never on the main thread.
import { convert as htmlToText } from 'html-to-text';
import mammoth from 'mammoth';
import { decodeText, docxContentType } from './content-sniff.js';

export interface ExtractionLimits {
  /** Characters kept; the rest is dropped and the result marked truncated. */
  maxChars: number;
  maxPdfPages: number;
}

export type ExtractionFailureReason =
  | 'unsupported_type'
  | 'content_mismatch'
  | 'too_large'
  | 'invalid_file'
  | 'encrypted'
  | 'no_text'
  | 'timeout'
  | 'out_of_memory';

export type ExtractionResult =
  | { ok: true; text: string; truncated: boolean }
  | { ok: false; reason: ExtractionFailureReason; detail: string };

/** Raised inside an extractor for a failure with a reason other than `invalid_file`. */
export class ExtractionFailure extends Error {
  constructor(
    readonly reason: ExtractionFailureReason,
    detail: string,
  ) {
    super(detail);
  }
}

/**
 * One canonical form, since evidence offsets point into it: no byte order mark, `\n` line ends, no
 * control characters but tab and line feed, and no run of more than two blank lines.
 */
export function normalizeText(text: string): string {
  return (
    text
      .replace(/^\uFEFF/, '')
      .replace(/\r\n?/g, '\n')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
      .replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, '')
      .replace(/\n{4,}/g, '\n\n\n')
  );
}

async function openPdf(bytes: Uint8Array) {
  const { getDocumentProxy } = await import('unpdf');
  try {
    // No eval of font programs: PDF.js's advice for untrusted files.
    // PDF.js refuses a Node Buffer (as storage reads and IPC deliver bytes); a plain view of the same memory passes.
    const data = Buffer.isBuffer(bytes) ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : bytes;
    return await getDocumentProxy(data, { isEvalSupported: false, useSystemFonts: false, stopAtErrors: false });
  } catch (error) {
    if ((error as Error).name === 'PasswordException') throw new ExtractionFailure('encrypted', 'The PDF is password-protected.');
    throw error;
  }
}

async function pdfText(bytes: Uint8Array, limits: ExtractionLimits): Promise<string> {
  const pdf = await openPdf(bytes);
  try {
    const pages: string[] = [];
    let chars = 0;
    for (let number = 1; number <= Math.min(pdf.numPages, limits.maxPdfPages) && chars <= limits.maxChars; number++) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if ('str' in item) text += item.str + (item.hasEOL ? '\n' : '');
      }
      pages.push(text.trim());
      chars += text.length;
      page.cleanup();
    }
    return pages.join('\n\n');
  } finally {
    await pdf.destroy();
  }
}

function htmlText(html: string): string {
  const keepCase = { options: { uppercase: false } };
  return htmlToText(html, {
    wordwrap: false,
    // Bounds on the parsed tree, so deeply nested or huge markup cannot blow up the conversion.
    limits: { maxDepth: 200, maxChildNodes: 100_000, maxInputLength: 60 * 1024 * 1024 },
    selectors: [
      { selector: 'a', options: { ignoreHref: true } },
      { selector: 'img', format: 'skip' },
      // Evidence is quoted from this text, so it keeps the source's letter case.
      ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, ...keepCase })),
      { selector: 'table', options: { uppercaseHeaderCells: false } },
    ],
  });
}

/** Text from one file; throws on a file its parser rejects. */
export async function extractFormat(bytes: Uint8Array, contentType: string, limits: ExtractionLimits): Promise<string> {
  switch (contentType) {
    case 'application/pdf':
      return pdfText(bytes, limits);
    case docxContentType:
      return (await mammoth.extractRawText({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) })).value;
    case 'text/html':
      return htmlText(decodeText(bytes));
    case 'application/json':
      // Indented, so passages break at structure rather than in one long line.
      return JSON.stringify(JSON.parse(decodeText(bytes)), null, 2);
    case 'text/plain':
    case 'text/markdown':
    case 'text/csv':
      // Kept as written: offsets then point at the same characters a reader sees in the file.
      return decodeText(bytes);
    default:
      throw new ExtractionFailure('unsupported_type', `No text extraction for ${contentType}.`);
  }
}

/** Runs an extractor and turns every outcome into a result; used inside the worker. */
export async function extractInProcess(bytes: Uint8Array, contentType: string, limits: ExtractionLimits): Promise<ExtractionResult> {
  try {
    const text = normalizeText(await extractFormat(bytes, contentType, limits)).trim();
    if (text === '')
      return { ok: false, reason: 'no_text', detail: 'The file contains no extractable text (a scanned document needs OCR first).' };
    const truncated = text.length > limits.maxChars;
    return { ok: true, text: truncated ? text.slice(0, limits.maxChars) : text, truncated };
  } catch (error) {
    if (error instanceof ExtractionFailure) return { ok: false, reason: error.reason, detail: error.message };
    return {
      ok: false,
      reason: 'invalid_file',
      detail: `The file could not be read: ${(error as Error).message ?? String(error)}`.slice(0, 500),
    };
  }
}
