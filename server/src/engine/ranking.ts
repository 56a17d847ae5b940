// BM25 ranking of passages per claim. The index is built only for the terms the request's claims and
// question use, in one pass over the sources: linear in their size and far cheaper than a full
// inverted index (minisearch took 150-280 ms to index 1 MB; this takes a fraction of that).
import type { Passage } from './passages.js';
import type { EngineSource } from './types.js';

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

/**
 * `vocabulary`: terms ranked with postings; `presence`: terms (synonyms of the request's words) whose
 * mere occurrence is all that is asked, kept as a set so that they add no postings to build.
 */
export function buildIndex(
  sources: EngineSource[],
  passages: Passage[],
  vocabulary: Set<string>,
  presence: Set<string> = new Set(),
): PassageIndex {
  const lengths = new Float64Array(passages.length);
  const postings = new Map<string, Map<number, number>>();
  const present = new Set<string>();
  let p = 0;
  sources.forEach((source, s) => {
    while (p < passages.length && passages[p]!.source < s) p++;
    // Lower-casing once is far cheaper than per word; offsets hold while the lengths agree.
    const lowered = source.text.toLowerCase();
    const text = lowered.length === source.text.length ? lowered : source.text;
    termPattern.lastIndex = 0;
    for (let m = termPattern.exec(text); m; m = termPattern.exec(text)) {
      while (p < passages.length && passages[p]!.source === s && passages[p]!.end <= m.index) p++;
      const passage = passages[p];
      if (!passage || passage.source !== s || passage.start > m.index) continue;
      lengths[p]!++;
      const word = m[0];
      const key =
        word.length > 3 && word.charCodeAt(word.length - 1) === 115 && word.charCodeAt(word.length - 2) !== 115 ? word.slice(0, -1) : word;
      const term = text === lowered ? key : termKey(word);
      if (!vocabulary.has(term)) {
        if (presence.has(term)) present.add(term);
        continue;
      }
      let list = postings.get(term);
      if (!list) {
        list = new Map();
        postings.set(term, list);
      }
      list.set(p, (list.get(p) ?? 0) + 1);
    }
  });
  let total = 0;
  for (const length of lengths) total += length;
  const average = total / Math.max(1, passages.length) || 1;
  return {
    passages,
    documentFrequency: (term) => postings.get(term)?.size ?? (present.has(term) ? 1 : 0),
    rank(terms, limit) {
      const scores = new Map<number, number>();
      for (const [term, weight] of terms) {
        const list = postings.get(term);
        if (!list) continue;
        const idf = Math.log(1 + (passages.length - list.size + 0.5) / (list.size + 0.5));
        for (const [passage, tf] of list) {
          const norm = (tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * lengths[passage]!) / average));
          scores.set(passage, (scores.get(passage) ?? 0) + weight * idf * norm);
        }
      }
      return [...scores]
        .map(([passage, score]) => ({ passage, score }))
        .sort((x, y) => y.score - x.score || x.passage - y.passage)
        .slice(0, limit);
    },
  };
}
