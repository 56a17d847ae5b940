// Does a file's content match its declared type? Judged from its leading bytes, at upload completion.

export const docxContentType = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** Text formats: UTF-8 (or, failing that, Windows-1252) without binary bytes. */
export const textContentTypes: ReadonlySet<string> = new Set(['text/plain', 'text/markdown', 'text/html', 'text/csv', 'application/json']);

/** Enough for every check below; read this many bytes (or the whole file when smaller). */
export const sniffLength = 4096;

/** Signatures of binary formats that must never pass as text. */
const binarySignatures: readonly number[][] = [
  [0x25, 0x50, 0x44, 0x46, 0x2d], // %PDF-
  [0x50, 0x4b, 0x03, 0x04], // ZIP (DOCX, XLSX, …)
  [0x89, 0x50, 0x4e, 0x47], // PNG
  [0xff, 0xd8, 0xff], // JPEG
  [0x47, 0x49, 0x46, 0x38], // GIF8
  [0x7f, 0x45, 0x4c, 0x46], // ELF
  [0x4d, 0x5a], // MZ (Windows executables)
  [0xd0, 0xcf, 0x11, 0xe0], // OLE2 (legacy .doc)
  [0x1f, 0x8b], // gzip
];

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  return signature.every((byte, index) => bytes[at + index] === byte);
}

/** True when the sample has no NUL or other C0 control byte apart from tab, line feed, form feed and carriage return. */
function looksLikeText(bytes: Uint8Array): boolean {
  if (binarySignatures.some((signature) => startsWith(bytes, signature))) return false;
  for (const byte of bytes) {
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d) return false;
  }
  return true;
}

function firstNonSpace(bytes: Uint8Array): number | undefined {
  let index = startsWith(bytes, [0xef, 0xbb, 0xbf]) ? 3 : 0; // UTF-8 byte order mark
  while (index < bytes.length && [0x20, 0x09, 0x0a, 0x0d].includes(bytes[index]!)) index++;
  return bytes[index];
}

/**
 * Whether `firstBytes` (the first `sniffLength` bytes, or the whole file) can be a file of
 * `declaredType`. PDF: `%PDF-` within the first 1024 bytes, as readers accept. DOCX: a ZIP local file
 * header. JSON: text whose first character can start a JSON value. Other text types: text.
 */
export function sniffMatches(declaredType: string, firstBytes: Uint8Array): boolean {
  if (firstBytes.length === 0) return false;
  const type = declaredType.split(';')[0]!.trim().toLowerCase();
  if (type === 'application/pdf') {
    const window = firstBytes.subarray(0, 1024);
    for (let at = 0; at + 5 <= window.length; at++) {
      if (startsWith(window, [0x25, 0x50, 0x44, 0x46, 0x2d], at)) return true;
    }
    return false;
  }
  if (type === docxContentType) return startsWith(firstBytes, [0x50, 0x4b, 0x03, 0x04]);
  if (!textContentTypes.has(type) || !looksLikeText(firstBytes)) return false;
  if (type === 'application/json') {
    const first = firstNonSpace(firstBytes);
    return first !== undefined && '{["-0123456789tfn'.includes(String.fromCharCode(first));
  }
  return true;
}

/** Text from bytes: UTF-8 when valid (byte order mark dropped), otherwise Windows-1252. */
export function decodeText(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}
