// BM25 ranking of passages per claim. The index is built only for the terms the request's claims and
// question use, in one pass over the sources: linear in their size and far cheaper than a full
// inverted index (minisearch took 150-280 ms to index 1 MB; this takes a fraction of that).

import type { EngineSource } from '../types.js';
import type { Passage } from './passages.js';
import { scanTerms, termTable } from './term-scan.js';

const k1 = 1.2;
const b = 0.75;
const termPattern = /[\p{L}\p{N}]+/gu;

/** The form a word is indexed under: lower case, a plural "s" dropped. */
export function termKey(word: string): string {
  const lower = word.toLowerCase();
  return lower.length > 3 && lower.endsWith('s') && !lower.endsWith('ss') ? lower.slice(0, -1) : lower;
}

export interface PassageIndex {
  passages: Passage[];
  rank(terms: Map<string, number>, limit: number): { passage: number; score: number }[];
  /** How many passages hold the term. */
  documentFrequency(term: string): number;
}

interface Occurrences {
  /** Each vocabulary term's count per passage. */
  postings: Map<string, Map<number, number>>;
  /** The presence terms that occur at all. */
  present: Set<string>;
}

function addPosting(postings: Map<string, Map<number, number>>, term: string, passage: number): void {
  let list = postings.get(term);
  if (!list) {
    list = new Map();
    postings.set(term, list);
  }
  list.set(passage, (list.get(passage) ?? 0) + 1);
}

/** One pass over the sources, passage by passage in step with the offsets of the terms found. */
function occurrencesOf(
  sources: EngineSource[],
  lowered: string[],
  passages: Passage[],
  vocabulary: Set<string>,
  presence: Set<string>,
): Occurrences {
  const found: Occurrences = { postings: new Map(), present: new Set() };
  const table = termTable([...vocabulary, ...presence]);
  let p = 0;
  let s = 0;
  const visit = (at: number, term: string): void => {
    while (p < passages.length && passages[p]!.source === s && passages[p]!.end <= at) p++;
    const passage = passages[p];
    if (!passage || passage.source !== s || passage.start > at) return;
    if (vocabulary.has(term)) addPosting(found.postings, term, p);
    else found.present.add(term);
  };
  for (; s < sources.length; s++) {
    while (p < passages.length && passages[p]!.source < s) p++;
    // Offsets hold while lower-casing keeps the length (it nearly always does); else word by word.
    if (lowered[s]!.length === sources[s]!.text.length) scanTerms(lowered[s]!, table, visit);
    else
      for (const m of sources[s]!.text.matchAll(termPattern)) {
        const term = termKey(m[0]);
        if (vocabulary.has(term) || presence.has(term)) visit(m.index, term);
      }
  }
  return found;
}

/**
 * `vocabulary`: terms ranked with postings; `presence`: terms (synonyms of the request's words) whose
 * mere occurrence is all that is asked, kept as a set so that they add no postings to build.
 */
export function buildIndex(
  sources: EngineSource[],
  lowered: string[],
  passages: Passage[],
  vocabulary: Set<string>,
  presence: Set<string> = new Set(),
): PassageIndex {
  // A passage's length in characters stands in for its length in words: BM25 only uses the ratio to
  // the average, and counting characters costs nothing.
  const lengths = Float64Array.from(passages, (passage) => passage.end - passage.start);
  const { postings, present } = occurrencesOf(sources, lowered, passages, vocabulary, presence);
  let total = 0;
  for (const length of lengths) total += length;
  const average = total / Math.max(1, passages.length) || 1;
  let scores: Float64Array | undefined;
  return {
    passages,
    documentFrequency: (term) => postings.get(term)?.size ?? (present.has(term) ? 1 : 0),
    rank(terms, limit) {
      // Scores in a flat array indexed by passage, touched passages listed: far cheaper than a Map
      // when a common term has thousands of postings in a large source.
      scores ??= new Float64Array(passages.length);
      const touched: number[] = [];
      for (const [term, weight] of terms) {
        const list = postings.get(term);
        if (!list) continue;
        const idf = Math.log(1 + (passages.length - list.size + 0.5) / (list.size + 0.5));
        for (const [passage, tf] of list) {
          const norm = (tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * lengths[passage]!) / average));
          if (scores[passage] === 0) touched.push(passage);
          scores[passage]! += weight * idf * norm;
        }
      }
      const ranked = touched
        .map((passage) => ({ passage, score: scores![passage]! }))
        .sort((x, y) => y.score - x.score || x.passage - y.passage)
        .slice(0, limit);
      for (const passage of touched) scores[passage] = 0;
      return ranked;
    },
  };
}
