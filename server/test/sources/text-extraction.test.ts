// Text extraction of every source format, and its failures, each as a typed result.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractText } from '../../src/services/sources/text-extraction.js';
import { docxType, makeDocx, makePdf, makeRawDocx, splitPlaceholderParagraph } from './fixtures.js';

const utf8 = (text: string) => new TextEncoder().encode(text);

async function textOf(bytes: Uint8Array, contentType: string): Promise<string> {
  const result = await extractText(bytes, contentType);
  assert.ok(result.ok, result.ok ? '' : `${result.reason}: ${result.detail}`);
  return result.text;
}

describe('extractText', () => {
  it('extracts a PDF, page by page', async () => {
    const text = await textOf(await makePdf([['Refunds are paid within 14 days.', 'Second line'], ['Page two text']]), 'application/pdf');
    assert.match(text, /Refunds are paid within 14 days\./);
    assert.match(text, /Second line/);
    assert.match(text, /Page two text/);
    assert.ok(text.indexOf('Refunds') < text.indexOf('Page two'));
  });

  it('extracts a PDF handed over as a Node Buffer, as storage reads and HTTP responses deliver it', async () => {
    const pdf = Buffer.from(await makePdf([['Refunds are paid within 14 days.']]));
    assert.equal(await textOf(pdf, 'application/pdf'), 'Refunds are paid within 14 days.');
  });

  it('extracts a DOCX written by Word-compatible software', async () => {
    const docx = await makeDocx({
      header: 'Acme Ltd',
      body: ['The warranty lasts two years.', [{ text: 'Bold ', bold: true }, { text: 'and plain.' }]],
      footer: 'Page 1',
    });
    const text = await textOf(docx, docxType);
    assert.match(text, /The warranty lasts two years\./);
    assert.match(text, /Bold and plain\./);
  });

  it('joins a word that Word split across runs', async () => {
    const text = await textOf(makeRawDocx(splitPlaceholderParagraph), docxType);
    assert.equal(text, 'Dear {{customer_name}},');
  });

  it('extracts HTML without markup, scripts or styles, keeping letter case', async () => {
    const html =
      '<!doctype html><html><head><title>t</title><style>p{color:red}</style><script>alert(1)</script></head><body><h1>Returns Policy</h1><p>Items can be returned within <b>30 days</b>. <a href="https://example.com/x">Details</a></p></body></html>';
    const text = await textOf(utf8(html), 'text/html; charset=utf-8');
    assert.match(text, /^Returns Policy/);
    assert.match(text, /Items can be returned within 30 days\. Details/);
    assert.doesNotMatch(text, /alert|color|example\.com|</);
  });

  it('keeps Markdown, CSV and plain text as written, with normalised line ends', async () => {
    assert.equal(await textOf(utf8('# Title\r\n\r\nSome *emphasis*.\r\n'), 'text/markdown'), '# Title\n\nSome *emphasis*.');
    assert.equal(await textOf(utf8('sku,price\nA1,10\n'), 'text/csv'), 'sku,price\nA1,10');
    assert.equal(await textOf(utf8('\uFEFFplain\rtext'), 'text/plain'), 'plain\ntext');
    assert.equal(await textOf(new Uint8Array([0x63, 0x61, 0x66, 0xe9]), 'text/plain'), 'café'); // Windows-1252
  });

  it('indents JSON', async () => {
    assert.equal(await textOf(utf8('{"plan":{"price":10}}'), 'application/json'), '{\n  "plan": {\n    "price": 10\n  }\n}');
  });

  it('reports every failure with a reason instead of throwing', async () => {
    const cases: Array<[Uint8Array, string, string]> = [
      [utf8('hello'), 'image/png', 'unsupported_type'],
      [utf8('just text'), 'application/pdf', 'content_mismatch'],
      [await makePdf([['x']]), 'text/plain', 'content_mismatch'],
      [utf8('%PDF-1.7\nthis is not a real pdf'), 'application/pdf', 'invalid_file'],
      [makeRawDocx('').subarray(0, 60), docxType, 'invalid_file'],
      [utf8('{"unterminated": '), 'application/json', 'invalid_file'],
      [await makePdf([[]]), 'application/pdf', 'no_text'],
      [utf8('   \n  '), 'text/plain', 'no_text'],
    ];
    for (const [bytes, type, reason] of cases) {
      const result = await extractText(bytes, type);
      assert.equal(result.ok ? 'ok' : result.reason, reason, `${type}: ${result.ok ? '' : result.detail}`);
    }
  });

  it('keeps within its budget: size, characters, time and memory', async () => {
    assert.equal((await extractText(utf8('x'.repeat(100)), 'text/plain', { maxInputBytes: 10 })).ok ? 'ok' : 'refused', 'refused');

    const truncated = await extractText(utf8('0123456789abcdef'), 'text/plain', { maxChars: 10 });
    assert.deepEqual(truncated, { ok: true, text: '0123456789', truncated: true });

    const slow = await extractText(await makePdf([['text']]), 'application/pdf', { timeoutMs: 1 });
    assert.deepEqual(slow.ok ? 'ok' : slow.reason, 'timeout');

    // 40 MB of JSON cannot be parsed in a 16 MB heap: the worker dies, the server does not.
    const huge = utf8(`[${'"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",'.repeat(1_000_000)}0]`);
    const oom = await extractText(huge, 'application/json', { maxMemoryMb: 16 });
    assert.equal(oom.ok ? 'ok' : oom.reason, 'out_of_memory');
  });

  it('runs extractions side by side, a few workers at a time', async () => {
    const files = await Promise.all([1, 2, 3, 4, 5].map((n) => makePdf([[`Document number ${n}`]])));
    const results = await Promise.all(files.map((file) => extractText(file, 'application/pdf')));
    results.forEach((result, index) => assert.ok(result.ok && result.text.includes(`Document number ${index + 1}`)));
  });
});
