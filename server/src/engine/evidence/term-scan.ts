// Reads a lower-cased text word by word (runs of letters and digits, as /[\p{L}\p{N}]+/u) and tells
// which words are among a small set of wanted terms, without making a string of each word: a word is
// hashed as it is read and compared only on a hash hit. Indexing a megabyte of sources is mostly this
// loop, so it allocates nothing per word.

/** 0: not yet known, 1: a letter or digit, 2: neither; per UTF-16 unit of the basic plane. */
const unitClass = new Uint8Array(65536);
const wordPattern = /^[\p{L}\p{N}]$/u;

function isWordUnit(unit: number): boolean {
  let known = unitClass[unit]!;
  if (known === 0) {
    known = wordPattern.test(String.fromCharCode(unit)) ? 1 : 2;
    unitClass[unit] = known;
  }
  return known === 1;
}

function hashStep(hash: number, unit: number): number {
  return Math.imul(hash ^ unit, 16777619);
}
const hashSeed = 2166136261 | 0;

function hashOf(term: string): number {
  let hash = hashSeed;
  for (let i = 0; i < term.length; i++) hash = hashStep(hash, term.charCodeAt(i));
  return hash;
}

/** The wanted terms by hash, for `scanTerms`. */
export type TermTable = Map<number, string[]>;

export function termTable(terms: Iterable<string>): TermTable {
  const table: TermTable = new Map();
  for (const term of terms) {
    const hash = hashOf(term);
    const list = table.get(hash);
    if (!list) table.set(hash, [term]);
    else if (!list.includes(term)) list.push(term);
  }
  return table;
}

/**
 * Calls `visit(start, term)` for each word of `text` that is a wanted term (its plural "s" dropped as
 * `termKey` does), in order. `text` must already be lower case.
 */
export function scanTerms(text: string, table: TermTable, visit: (start: number, term: string) => void): void {
  const length = text.length;
  let i = 0;
  while (i < length) {
    let unit = text.charCodeAt(i);
    let width = unitWidth(text, i, unit);
    if (width === 0) {
      i++;
      continue;
    }
    const start = i;
    let hash = hashSeed;
    let before = hashSeed;
    while (width > 0) {
      before = hash;
      hash = hashStep(hash, unit);
      if (width === 2) hash = hashStep(hash, text.charCodeAt(i + 1));
      i += width;
      if (i >= length) break;
      unit = text.charCodeAt(i);
      width = unitWidth(text, i, unit);
    }
    const term = wantedTerm(text, table, start, i, hash, before);
    if (term !== undefined) visit(start, term);
  }
}

/**
 * The wanted term the word `[start, end)` of `text` is, if any; `hash` is the word's hash, `before`
 * its hash without the last unit.
 */
function wantedTerm(text: string, table: TermTable, start: number, end: number, hash: number, before: number): string | undefined {
  const size = end - start;
  // A plural "s" is dropped, as termKey does ("plans" is looked up as "plan", "class" as "class").
  const plural = size > 3 && text.charCodeAt(end - 1) === 115 && text.charCodeAt(end - 2) !== 115;
  const candidates = table.get(plural ? before : hash);
  if (candidates === undefined) return undefined;
  const termLength = plural ? size - 1 : size;
  return candidates.find((c) => c.length === termLength && text.startsWith(c, start));
}

/** 1 or 2 units for a letter or digit at `i` (2 for one outside the basic plane), 0 for anything else. */
function unitWidth(text: string, i: number, unit: number): number {
  if (unit < 0xd800 || unit > 0xdbff) return isWordUnit(unit) ? 1 : 0;
  const point = text.codePointAt(i)!;
  return point > 0xffff && wordPattern.test(String.fromCodePoint(point)) ? 2 : 0;
}
