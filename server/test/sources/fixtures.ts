// Small files of every source format, generated in code: PDF with pdf-lib, DOCX with the docx
// package (as Word writes it) or by hand (to control exactly how runs are split).
import { AlignmentType, Document, Footer, Header, Packer, Paragraph, TextRun } from 'docx';
import { strToU8, zipSync } from 'fflate';
import { PDFDocument, StandardFonts } from 'pdf-lib';

export const docxType = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

export async function makePdf(pages: string[][]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = pdf.addPage();
    lines.forEach((line, index) => page.drawText(line, { x: 50, y: 750 - index * 20, size: 12, font }));
  }
  return pdf.save();
}

/** A DOCX as Word-compatible software writes it, with header and footer. */
export async function makeDocx(options: {
  header?: string;
  body: Array<string | Array<{ text: string; bold?: boolean }>>;
  footer?: string;
}): Promise<Uint8Array> {
  const paragraph = (content: string | Array<{ text: string; bold?: boolean }>) =>
    new Paragraph({
      alignment: AlignmentType.LEFT,
      children: typeof content === 'string' ? [new TextRun(content)] : content.map((run) => new TextRun(run)),
    });
  const document = new Document({
    sections: [
      {
        ...(options.header && { headers: { default: new Header({ children: [paragraph(options.header)] }) } }),
        ...(options.footer && { footers: { default: new Footer({ children: [paragraph(options.footer)] }) } }),
        children: options.body.map(paragraph),
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(document));
}

const w = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

/** The body of word/document.xml, wrapped in the namespaces Word declares. */
export function wordXml(root: 'document' | 'hdr' | 'ftr', inner: string): string {
  const content = root === 'document' ? `<w:body>${inner}</w:body>` : inner;
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:${root} xmlns:w="${w}" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" mc:Ignorable="wps">${content}</w:${root}>`;
}

/** A minimal DOCX from hand-written parts, e.g. a placeholder split across runs. */
export function makeRawDocx(documentBody: string, parts: Record<string, string> = {}): Uint8Array {
  const files: Record<string, Uint8Array> = {
    '[Content_Types].xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
    ),
    '_rels/.rels': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    ),
    'word/document.xml': strToU8(wordXml('document', documentBody)),
  };
  for (const [name, xml] of Object.entries(parts)) files[name] = strToU8(xml);
  return zipSync(files);
}

/** The split Word makes when part of a word is formatted: `{{cust` + bold `omer_name}}`. */
export const splitPlaceholderParagraph =
  '<w:p><w:r><w:t xml:space="preserve">Dear </w:t></w:r><w:r><w:t>{{cust</w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>omer_name}}</w:t></w:r><w:r><w:t>,</w:t></w:r></w:p>';
