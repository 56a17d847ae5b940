// The word scanner behind the index finds exactly the words a /[\p{L}\p{N}]+/u split would, with the
// same plural rule as termKey, including letters outside ASCII and outside the basic plane.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { termKey } from '../../src/engine/evidence/ranking.js';
import { scanTerms, termTable } from '../../src/engine/evidence/term-scan.js';

function byRegex(text: string, wanted: Set<string>): [number, string][] {
  return [...text.matchAll(/[\p{L}\p{N}]+/gu)].map((m) => [m.index, termKey(m[0])] as [number, string]).filter(([, t]) => wanted.has(t));
}

function byScan(text: string, wanted: Set<string>): [number, string][] {
  const hits: [number, string][] = [];
  scanTerms(text, termTable(wanted), (at, term) => hits.push([at, term]));
  return hits;
}

describe('term scanner', () => {
  it('finds the wanted terms where a regular-expression split finds them', () => {
    const text = 'plans, the plan; glass classes café cafés 99.9% uptime… naïve 𝐀bc crème-brûlée x1 plans'.toLowerCase();
    const wanted = new Set(['plan', 'glass', 'classe', 'café', '99', 'uptime', 'naïve', 'bc', 'crème', 'brûlée', 'x1', 'the']);
    assert.deepEqual(byScan(text, wanted), byRegex(text, wanted));
    assert.ok(byScan(text, wanted).length >= 10);
  });
  it('drops a plural "s" as termKey does, but not from short words or a double "s"', () => {
    const wanted = new Set(['gas', 'bus', 'class', 'seat']);
    assert.deepEqual(
      byScan('gas bus class seats seat', wanted).map(([, t]) => t),
      ['gas', 'bus', 'class', 'seat', 'seat'],
    );
  });
});
