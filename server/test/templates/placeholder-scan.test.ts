// The placeholder scan of DOCX (split runs, headers, footers), HTML, Markdown and text templates.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { strToU8, zipSync } from 'fflate';
import { dereferencedSpec } from '../../../test/support/spec.js';
import { DocxTooLarge, docxParagraphs, partParagraphs } from '../../src/services/templates/docx-paragraphs.js';
import { type PlaceholderScanResult, scanPlaceholders, scanTemplate } from '../../src/services/templates/placeholder-scan.js';
import { docxType, makeDocx, makePdf, makeRawDocx, splitPlaceholderParagraph, wordXml } from '../sources/fixtures.js';

const utf8 = (text: string) => new TextEncoder().encode(text);

function found(result: PlaceholderScanResult) {
  assert.ok(result.ok, result.ok ? '' : `${result.reason}: ${result.detail}`);
  return result;
}

const run = (text: string, props = '') => `<w:r>${props}<w:t xml:space="preserve">${text}</w:t></w:r>`;
const paragraph = (...runs: string[]) => `<w:p>${runs.join('')}</w:p>`;

describe('scanPlaceholders in DOCX', () => {
  it('joins a placeholder Word split across runs', () => {
    const result = found(scanPlaceholders(makeRawDocx(splitPlaceholderParagraph), docxType));
    assert.deepEqual(result.placeholders, [{ name: 'customer_name', occurrences: 1 }]);
    assert.deepEqual(result.schema, { fields: [{ name: 'customer_name', type: 'string', required: true }] });
  });

  it('handles braces split from the name, spaces, proofing marks and repeats', () => {
    const body = [
      paragraph(
        run('{'),
        run('{ '),
        '<w:proofErr w:type="spellStart"/>',
        run('order'),
        '<w:proofErr w:type="spellEnd"/>',
        run('.id }'),
        run('}'),
      ),
      paragraph(run('Total: {{amount}} for {{ order.id }}, again {{amount}}')),
    ].join('');
    const result = found(scanPlaceholders(makeRawDocx(body), docxType));
    assert.deepEqual(result.placeholders, [
      { name: 'order.id', occurrences: 2 },
      { name: 'amount', occurrences: 2 },
    ]);
  });

  it('reads headers and footers too, in page order, from a DOCX written by the docx package', async () => {
    const docx = await makeDocx({
      header: '{{company}} confidential',
      body: [[{ text: 'Dear {{cust' }, { text: 'omer}}', bold: true }], 'Signed, {{company}}'],
      footer: 'Ref {{reference}}',
    });
    const result = found(scanPlaceholders(docx, docxType));
    assert.deepEqual(result.placeholders, [
      { name: 'company', occurrences: 2 },
      { name: 'customer', occurrences: 1 },
      { name: 'reference', occurrences: 1 },
    ]);
  });

  it('counts a text box once although Word stores it twice, and ignores field codes and deletions', () => {
    const textBox = (text: string) => `<w:p>${run(text)}</w:p>`;
    const body = paragraph(
      `<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><w:txbxContent>${textBox('{{boxed}}')}</w:txbxContent></w:drawing></mc:Choice><mc:Fallback><w:pict><w:txbxContent>${textBox('{{boxed}}')}</w:txbxContent></w:pict></mc:Fallback></mc:AlternateContent></w:r>`,
      '<w:r><w:instrText> MERGEFIELD {{field_code}} </w:instrText></w:r>',
      '<w:del><w:r><w:delText>{{deleted}}</w:delText></w:r></w:del>',
      run('{{kept}}'),
    );
    const result = found(scanPlaceholders(makeRawDocx(body), docxType));
    assert.deepEqual(result.placeholders, [
      { name: 'boxed', occurrences: 1 },
      { name: 'kept', occurrences: 1 },
    ]);
  });

  it('does not join text across paragraphs', () => {
    assert.deepEqual(partParagraphs(wordXml('document', paragraph(run('{{na')) + paragraph(run('me}}')))), ['{{na', 'me}}']);
    assert.deepEqual(found(scanPlaceholders(makeRawDocx(paragraph(run('{{na')) + paragraph(run('me}}'))), docxType)).placeholders, []);
  });

  it('refuses oversized parts before inflating them, and files that are not DOCX', async () => {
    assert.throws(
      () => docxParagraphs(makeRawDocx(paragraph(run('x'.repeat(5000)))), { maxPartBytes: 1000, maxTotalBytes: 10_000 }),
      DocxTooLarge,
    );
    const noDocument = zipSync({ 'word/other.xml': strToU8('<x/>') });
    assert.equal((scanPlaceholders(noDocument, docxType) as { reason: string }).reason, 'invalid_file');
    const brokenXml = zipSync({ 'word/document.xml': strToU8('<w:document xmlns:w="x"><w:body>') });
    assert.equal((scanPlaceholders(brokenXml, docxType) as { reason: string }).reason, 'invalid_file');
    assert.equal((scanPlaceholders(utf8('{{name}}'), docxType) as { reason: string }).reason, 'content_mismatch');
    assert.equal((scanPlaceholders(await makePdf([['{{name}}']]), 'application/pdf') as { reason: string }).reason, 'unsupported_type');
  });
});

describe('scanPlaceholders in text templates', () => {
  it('scans HTML, Markdown and plain text, in order of first appearance', () => {
    const html = '<p>Hello {{ first_name }},</p><a href="{{link}}">here</a><p>{{first_name}}</p>';
    assert.deepEqual(found(scanPlaceholders(utf8(html), 'text/html')).placeholders, [
      { name: 'first_name', occurrences: 2 },
      { name: 'link', occurrences: 1 },
    ]);
    const markdown = '# {{title}}\n\nDear **{{name}}**, see {{ title }}.\n';
    assert.deepEqual(found(scanPlaceholders(utf8(markdown), 'text/markdown')).placeholders, [
      { name: 'title', occurrences: 2 },
      { name: 'name', occurrences: 1 },
    ]);
    assert.deepEqual(found(scanPlaceholders(utf8('{{a}}{{b}}{{a}}'), 'text/plain; charset=utf-8')).placeholders, [
      { name: 'a', occurrences: 2 },
      { name: 'b', occurrences: 1 },
    ]);
  });

  it('reports text in braces that is not a valid field name, and ignores it', () => {
    const result = found(scanPlaceholders(utf8('{{ first name }} {{1st}} {{}} {{ok_name}} {{{triple}}}'), 'text/plain'));
    assert.deepEqual(result.placeholders, [
      { name: 'ok_name', occurrences: 1 },
      { name: 'triple', occurrences: 1 },
    ]);
    assert.deepEqual(result.invalid, ['first name', '1st', '']);
  });

  it('refuses more placeholders than a schema can hold', () => {
    const text = Array.from({ length: 201 }, (_, index) => `{{field_${index}}}`).join(' ');
    assert.equal((scanPlaceholders(utf8(text), 'text/plain') as { reason: string }).reason, 'too_many_placeholders');
    assert.equal(found(scanPlaceholders(utf8(text.replace(' {{field_200}}', '')), 'text/plain')).placeholders.length, 200);
  });

  it('builds a schema that matches the contract', async () => {
    const spec = await dereferencedSpec();
    const templateSchema = (spec.components!.schemas as Record<string, object>).TemplateSchema!;
    const validate = new Ajv2020({ strict: false }).compile(templateSchema);
    const result = found(scanPlaceholders(utf8('{{a}} {{b.c}} {{_d}}'), 'text/plain'));
    assert.ok(validate(result.schema), JSON.stringify(validate.errors));
  });
});

describe('scanTemplate (isolated)', () => {
  it('gives the same answer from a separate process, within a budget', async () => {
    const docx = makeRawDocx(splitPlaceholderParagraph);
    assert.deepEqual(await scanTemplate(docx, docxType), scanPlaceholders(docx, docxType));
    const slow = await scanTemplate(docx, docxType, { timeoutMs: 1, maxMemoryMb: 256 });
    assert.equal(slow.ok ? 'ok' : slow.reason, 'timeout');
  });
});
