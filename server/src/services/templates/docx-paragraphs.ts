// The text of a DOCX as paragraphs, with each paragraph's runs joined: Word splits a word into runs
// when part of it is formatted or spell-checked, so `{{cust` + `omer_name}}` must read as one string.
import { unzipSync } from 'fflate';
import { SaxesParser } from 'saxes';

const wordNs = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const compatibilityNs = 'http://schemas.openxmlformats.org/markup-compatibility/2006';

export interface DocxLimits {
  /** Largest uncompressed XML part; a larger one means a ZIP bomb or a document no template needs. */
  maxPartBytes: number;
  maxTotalBytes: number;
}

export const defaultDocxLimits: DocxLimits = { maxPartBytes: 64 * 1024 * 1024, maxTotalBytes: 128 * 1024 * 1024 };

export class DocxTooLarge extends Error {}

/** Parts with text a reader sees, in page order: headers, body, notes, footers. */
const textPart = /^word\/(header\d*|document|footnotes|endnotes|footer\d*)\.xml$/;
const partOrder = ['header', 'document', 'footnotes', 'endnotes', 'footer'];

function partRank(name: string): [number, number] {
  const [, kind = '', number = '0'] = /^word\/([a-z]+)(\d*)\.xml$/.exec(name) ?? [];
  return [partOrder.indexOf(kind), Number(number || 0)];
}

/** Paragraph texts of one WordprocessingML part. Tabs and breaks become `\t` and `\n`. */
export function partParagraphs(xml: string): string[] {
  const parser = new SaxesParser({ xmlns: true });
  const paragraphs: string[] = [];
  const open: string[] = []; // paragraphs can nest (a text box inside a run)
  let inText = false;
  // Word stores a drawing's text twice, in mc:Choice and in mc:Fallback; read it once.
  let fallbackDepth = 0;
  const append = (text: string) => {
    if (open.length > 0 && fallbackDepth === 0) open[open.length - 1] += text;
  };
  parser.on('opentag', (node) => {
    if (node.uri === compatibilityNs && node.local === 'Fallback') fallbackDepth++;
    if (node.uri !== wordNs) return;
    if (node.local === 'p') open.push('');
    else if (node.local === 't') inText = true;
    else if (node.local === 'tab') append('\t');
    else if (node.local === 'br' || node.local === 'cr') append('\n');
  });
  parser.on('closetag', (node) => {
    if (node.uri === compatibilityNs && node.local === 'Fallback') fallbackDepth--;
    if (node.uri !== wordNs) return;
    if (node.local === 't') inText = false;
    else if (node.local === 'p') {
      const text = open.pop() ?? '';
      if (fallbackDepth === 0) paragraphs.push(text);
    }
  });
  // Only w:t holds document text: w:instrText (field codes) and w:delText (deletions) do not count.
  parser.on('text', (text) => {
    if (inText) append(text);
  });
  parser.write(xml).close();
  return paragraphs;
}

/** Every paragraph of the document, headers and footers included; throws on a file that is not a DOCX. */
export function docxParagraphs(bytes: Uint8Array, limits: DocxLimits = defaultDocxLimits): string[] {
  let total = 0;
  const parts = unzipSync(bytes, {
    filter(file) {
      if (!textPart.test(file.name)) return false;
      // Sizes from the ZIP directory; fflate inflates into a buffer of this size and no larger.
      total += file.originalSize;
      if (file.originalSize > limits.maxPartBytes || total > limits.maxTotalBytes) throw new DocxTooLarge(`${file.name} is too large.`);
      return true;
    },
  });
  const names = Object.keys(parts).sort((a, b) => {
    const [kindA, numberA] = partRank(a);
    const [kindB, numberB] = partRank(b);
    return kindA - kindB || numberA - numberB;
  });
  if (!names.includes('word/document.xml')) throw new Error('The file has no word/document.xml.');
  const decoder = new TextDecoder('utf-8');
  return names.flatMap((name) => partParagraphs(decoder.decode(parts[name])));
}
