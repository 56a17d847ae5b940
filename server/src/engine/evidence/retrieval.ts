// Per-claim retrieval: the passages that speak about the claim's own subject. The query is the
// claim's words, with the question's and the previous claim's words at lower weight so that short
// answers ("Harriet Osk") and follow-on sentences ("It costs $9") are located through their context.
import { stopwords } from '../language/lexicon.js';
import { extractQuantities, type Quantity } from '../language/quantities.js';
import { contentStems, formBag, type Token, tokenize } from '../language/tokens.js';
import { looseForms } from '../language/wording.js';
import type { EngineSource } from '../types.js';
import type { Passage } from './passages.js';
import { splitPassages } from './passages.js';
import { buildIndex, type PassageIndex, termKey } from './ranking.js';
import { fieldRecord } from './records.js';
import { type Cell, cellsOf, tableHeaders } from './tables.js';

export interface ReadPassage extends Passage {
  id: number;
  score: number;
  tokens: Token[];
  bag: Set<string>;
  /** Forms of the passage's ordinary words, leaving out words of names ("Wind" of "North Wind Rowing Club"). */
  wordBag: Set<string>;
  quantities: Quantity[];
  /** Figures of the heading the passage sits under ("2.3.0 (2023-11-02)" over its list items). */
  headingQuantities: Quantity[];
  /** A table row's cells, each with the stems of its column's header and of its row's label; else none. */
  cells: LabelledCell[];
}

export interface LabelledCell extends Cell {
  labels: Set<string>;
}

/** A line that heads what follows: short, no sentence end, not a list item; or a question on a line of its own, as FAQs head their answers. */
function isHeading(p: Passage, text: string): boolean {
  // A list item ("- …", "2. …", "(a) …", "b) …") or a line that runs on into the next ("… service; and") heads nothing.
  if (/^\s*(?:[-*•·]|\d+[.)]\s|\(?[a-z]{1,3}\)\s|\(\d{1,2}\)\s)/.test(p.text) || /\b(?:and|or|but|nor)$/.test(p.text)) return false;
  if (p.text.length <= 60 && !/[.!?;:,]$/.test(p.text)) return true;
  const ownLine = (p.start === 0 || text[p.start - 1] === '\n') && (p.end === text.length || text[p.end] === '\n');
  return ownLine && p.text.length <= 120 && p.text.endsWith('?');
}

/** Whether each passage heads a section, read when first asked. */
function headingsOf(sources: EngineSource[], passages: Passage[]): (id: number) => boolean {
  const known = new Map<number, boolean>();
  return (id) => {
    let heading = known.get(id);
    if (heading === undefined) {
      const p = passages[id]!;
      heading = isHeading(p, sources[p.source]!.text);
      known.set(id, heading);
    }
    return heading;
  };
}

export interface SourceView {
  sources: EngineSource[];
  index: PassageIndex;
  read(id: number, score: number): ReadPassage;
  /** Whether a word occurs anywhere in the sources (for words in the vocabulary). */
  contains(word: string): boolean;
  /** Whether a phrase occurs anywhere in the sources, ignoring case. */
  mentions(phrase: string): boolean;
  /** Whether a phrase occurs anywhere in the sources as written (capitals too). */
  mentionsExactly(phrase: string): boolean;
  /** Whether a word is part of a source's issuer: its first line up to a separator, as a letterhead names it. */
  issuedBy(word: string): boolean;
  /** The passages of the record of field lines that passage `id` is in ("Room 2: …" / "Rate: …"); none outside one. */
  recordOf(id: number): number[];
  /** The heading of the section passage `id` sits in ("Guest passes", "Can I bring a guest?"), whose words it speaks of. */
  headingOf(id: number): number | undefined;
}

/**
 * The words of each source's first line up to its first separator ("NORRVIK AIR - BAGGAGE RULES",
 * "Halvorsen Logistics — Security Policy"): who issues the document, and so who every passage speaks for.
 * A first line that ends a sentence is no letterhead.
 */
function issuerWords(sources: EngineSource[]): Set<string> {
  const words = new Set<string>();
  for (const source of sources) {
    const first = /^[^\n]{1,200}/.exec(source.text.trimStart())?.[0] ?? '';
    if (/[.!?]\s*$/.test(first)) continue;
    const head = first.split(/\s[-—–]\s|[:,(|]/)[0]!;
    for (const m of head.matchAll(/[\p{L}\p{N}]+/gu)) words.add(m[0].toLowerCase());
  }
  return words;
}

/** The words of a text. Function words are never looked up, and indexing "the" would cost a posting per occurrence. */
function addWords(text: string, vocabulary: Set<string>): void {
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) if (!stopwords.has(m[0].toLowerCase())) vocabulary.add(termKey(m[0]));
}

/** The lemmas of a text, and the synonyms of its content words, so that "is this word anywhere in the sources" also finds its paraphrases. */
function addLemmasAndSynonyms(text: string, vocabulary: Set<string>, presence: Set<string>): void {
  for (const token of tokenize(text)) {
    if (!stopwords.has(token.lemma)) vocabulary.add(termKey(token.lemma));
    if (token.content) for (const s of looseForms(token)) presence.add(termKey(s));
  }
}

/** The terms to index for `texts`: words and lemmas with postings, synonyms for their presence only. */
function termsOf(texts: string[]): { vocabulary: Set<string>; presence: Set<string> } {
  const vocabulary = new Set<string>();
  const presence = new Set<string>();
  for (const text of texts) {
    addWords(text, vocabulary);
    addLemmasAndSynonyms(text, vocabulary, presence);
  }
  return { vocabulary, presence };
}

/** Tokens other than capitalised words inside a sentence (words of names: "Wind" of "North Wind Rowing Club"). */
function ordinaryWords(tokens: Token[]): Token[] {
  return tokens.filter((t, i) => i === 0 || !/^\p{Lu}/u.test(t.text) || /^[.!?:]$/.test(tokens[i - 1]!.text));
}

/** The heading of passage `id`'s section, walking back a few passages; none when it is a heading itself. */
function headingOf(passages: Passage[], heads: (id: number) => boolean, id: number): number | undefined {
  const passage = passages[id]!;
  if (heads(id)) return undefined;
  for (let h = id - 1; h >= 0 && h >= id - 12 && passages[h]!.source === passage.source; h--) if (heads(h)) return h;
  return undefined;
}

/** A row's cells labelled by its header row's cells and its own first cell. */
function labelledCells(row: Passage, header: Passage | undefined): LabelledCell[] {
  if (!header) return [];
  const cells = cellsOf(row.text);
  const heads = cellsOf(header.text).map((c) => contentStems(tokenize(header.text.slice(c.start, c.end))));
  const rowLabel = cells[0] ? contentStems(tokenize(row.text.slice(cells[0].start, cells[0].end))) : [];
  return cells.map((cell, i) => ({ ...cell, labels: new Set([...(heads[i] ?? []), ...(i > 0 ? rowLabel : [])]) }));
}

function readPassage(
  passages: Passage[],
  headers: Map<number, number>,
  heading: number | undefined,
  id: number,
  score: number,
): ReadPassage {
  const passage = passages[id]!;
  const tokens = tokenize(passage.text);
  const headerId = headers.get(id);
  const header = headerId === undefined ? undefined : passages[headerId];
  return {
    ...passage,
    id,
    score,
    tokens,
    bag: formBag(tokens),
    wordBag: formBag(ordinaryWords(tokens)),
    quantities: quantitiesOf(passage.text),
    headingQuantities: heading === undefined ? [] : quantitiesOf(passages[heading]!.text),
    cells: labelledCells(passage, header),
  };
}

/** Splits and indexes the sources for the words of `texts` (the question and the answer's claims). */
export function viewSources(sources: EngineSource[], texts: string[]): SourceView {
  const passages = splitPassages(sources);
  const { vocabulary, presence } = termsOf(texts);
  const lowered = sources.map((s) => s.text.toLowerCase());
  const headers = tableHeaders(passages);
  const index = buildIndex(sources, lowered, passages, vocabulary, presence);
  const cache = new Map<number, ReadPassage>();
  const issuer = issuerWords(sources);
  const headings = headingsOf(sources, passages);
  const records = new Map<number, number[]>();
  return {
    sources,
    index,
    read(id, score) {
      let read = cache.get(id);
      if (!read) {
        read = readPassage(passages, headers, headingOf(passages, headings, id), id, score);
        cache.set(id, read);
      }
      return { ...read, score };
    },
    contains: (word) => index.documentFrequency(termKey(word)) > 0,
    mentions(phrase) {
      const wanted = phrase.toLowerCase();
      return lowered.some((text) => text.includes(wanted));
    },
    mentionsExactly: (phrase) => sources.some((s) => s.text.includes(phrase)),
    issuedBy: (word) => issuer.has(word.toLowerCase()),
    recordOf(id) {
      let record = records.get(id);
      if (!record) {
        record = fieldRecord(sources, passages, id);
        for (const member of [id, ...record]) records.set(member, record);
      }
      return record;
    },
    // A source's first line is its title: the letterhead reading (`issuedBy`) answers for that.
    headingOf(id) {
      const heading = headingOf(passages, headings, id);
      return heading !== undefined && passages[heading - 1]?.source === passages[heading]!.source ? heading : undefined;
    },
  };
}

const quantityCache = new Map<string, Quantity[]>();

/** The figures of a passage, memoised like its tokens: documents repeat sentences (and date parsing is dear). */
function quantitiesOf(text: string): Quantity[] {
  let found = quantityCache.get(text);
  if (!found) {
    found = extractQuantities(text);
    if (quantityCache.size > 20000) quantityCache.clear();
    quantityCache.set(text, found);
  }
  return found;
}

export interface QueryPart {
  text: string;
  weight: number;
}

function raise(terms: Map<string, number>, key: string, weight: number): void {
  terms.set(key, Math.max(terms.get(key) ?? 0, weight));
}

/** A token's query terms: its words (a number's at lower weight) and its lemma, each at its highest weight. */
function addTokenTerms(terms: Map<string, number>, token: Token, weight: number): void {
  const numeric = /^\d/.test(token.text);
  if (!token.content && !numeric) return;
  for (const m of token.text.matchAll(/[\p{L}\p{N}]+/gu)) raise(terms, termKey(m[0]), weight * (numeric ? 0.3 : 1));
  const lemma = termKey(token.lemma);
  if (/^[\p{L}]+$/u.test(lemma)) raise(terms, lemma, weight);
}

/** Ranked candidate passages for a query made of weighted texts. */
export function retrieve(view: SourceView, parts: QueryPart[], limit = 8): ReadPassage[] {
  const terms = new Map<string, number>();
  for (const part of parts) for (const token of tokenize(part.text)) addTokenTerms(terms, token, part.weight);
  // A label alone ("Opening hours.") states no fact: it is no evidence (its figures reach the lines under it).
  return view.index
    .rank(terms, limit + 2)
    .filter(({ passage }) => wordCount(view.index.passages[passage]!.text) >= 2)
    .slice(0, limit)
    .map(({ passage, score }) => view.read(passage, score));
}

function wordCount(text: string): number {
  return text.match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
}
