// Content sniffing by leading bytes, as the upload check uses it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sniffMatches } from '../../src/services/sources/content-sniff.js';
import { docxType, makeDocx, makePdf } from './fixtures.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('sniffMatches', async () => {
  const pdf = await makePdf([['hello']]);
  const docx = await makeDocx({ body: ['hello'] });
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]);

  const cases: Array<[string, Uint8Array, boolean, string]> = [
    ['application/pdf', pdf, true, 'a PDF'],
    ['application/pdf', bytes('\n\n%PDF-1.4 after junk'), true, 'a PDF header within the first 1024 bytes'],
    ['application/pdf', new Uint8Array([...new Uint8Array(2000), ...bytes('%PDF-1.4')]), false, 'a PDF header too far in'],
    ['application/pdf', bytes('<html>'), false, 'HTML declared as PDF'],
    ['application/pdf', docx, false, 'a DOCX declared as PDF'],
    [docxType, docx, true, 'a DOCX'],
    [docxType, zip, true, 'any ZIP (its parts are checked at extraction)'],
    [docxType, pdf, false, 'a PDF declared as DOCX'],
    [docxType, bytes('PK'), false, 'a truncated ZIP header'],
    ['text/plain', bytes('hello\tworld\r\n'), true, 'text'],
    ['text/plain', new Uint8Array([0x63, 0x61, 0x66, 0xe9]), true, 'Windows-1252 text'],
    ['text/plain', bytes('a\u0000b'), false, 'a NUL byte'],
    ['text/plain', new Uint8Array([0xff, 0xfe, 0x68, 0x00]), false, 'UTF-16'],
    ['text/plain', pdf, false, 'a PDF declared as text'],
    ['text/markdown', docx, false, 'a DOCX declared as Markdown'],
    ['text/html', png, false, 'a PNG declared as HTML'],
    ['text/html', bytes('<!doctype html><p>x</p>'), true, 'HTML'],
    ['text/csv; charset=utf-8', bytes('a,b\n1,2\n'), true, 'CSV with parameters'],
    ['application/json', bytes('\uFEFF  {"a": 1}'), true, 'JSON with a byte order mark'],
    ['application/json', bytes('[1,2]'), true, 'a JSON array'],
    ['application/json', bytes('hello'), false, 'text declared as JSON'],
    ['image/png', png, false, 'a type outside the contract'],
    ['text/plain', new Uint8Array(0), false, 'no bytes'],
  ];
  for (const [type, sample, expected, what] of cases) {
    it(`${expected ? 'accepts' : 'refuses'} ${what}`, () => assert.equal(sniffMatches(type, sample.subarray(0, 4096)), expected));
  }
});
