// Sources cut into sentence passages with offsets into their own text, in one linear pass.
import type { EngineSource } from '../types.js';

export interface Passage {
  /** Index in the request's sources. */
  source: number;
  start: number;
  end: number;
  text: string;
}

/** Passages longer than this are cut at semicolons so that each keeps one fact and its subject. */
const longPassage = 400;
// A sentence ends at . ! ? followed by space and a capital/digit/quote, or glued to a capital after a
// lowercase word ("harbour.Boats", as extracted web text often is); or at a line break.
const boundary = /([.!?])(?:["”’)]?)(?=\s+["“‘(]?[\p{Lu}\d]|[\p{Lu}][\p{Ll}])|\n\s*/gu;
// Abbreviations that end in a period without ending the sentence.
const abbreviation =
  /(?:\b(?:[A-Z]|St|Dr|Mr|Mrs|Ms|Prof|Jr|Sr|No|Nos|Vol|vs|etc|Inc|Ltd|Co|Corp|Gen|Col|Lt|Mt|Ft|approx|e\.g|i\.e|U\.S|U\.K|a\.m|p\.m))$/;

export function splitPassages(sources: EngineSource[]): Passage[] {
  const passages: Passage[] = [];
  sources.forEach((source, index) => {
    const text = source.text;
    let start = 0;
    boundary.lastIndex = 0;
    for (let m = boundary.exec(text); m; m = boundary.exec(text)) {
      const end = m.index + (m[1] ? m[0].length : 0);
      if (m[1] && abbreviation.test(text.slice(Math.max(0, m.index - 6), m.index))) continue;
      push(passages, index, text, start, end);
      start = m.index + m[0].length;
    }
    push(passages, index, text, start, text.length);
  });
  return passages;
}

function push(passages: Passage[], source: number, text: string, start: number, end: number): void {
  const trimmed = trim(text, start, end);
  if (!trimmed) return;
  let [from, to] = trimmed;
  if (to - from > longPassage) {
    // Cut at "; " into pieces of reasonable size.
    let pieceStart = from;
    for (let i = text.indexOf('; ', from); i !== -1 && i < to; i = text.indexOf('; ', i + 2)) {
      if (i + 1 - pieceStart >= 80) {
        add(passages, source, text, pieceStart, i + 1);
        pieceStart = i + 2;
      }
    }
    from = pieceStart;
  }
  add(passages, source, text, from, to);
}

function add(passages: Passage[], source: number, text: string, start: number, end: number): void {
  const trimmed = trim(text, start, end);
  if (trimmed) passages.push({ source, start: trimmed[0], end: trimmed[1], text: text.slice(trimmed[0], trimmed[1]) });
}

function trim(text: string, start: number, end: number): [number, number] | undefined {
  while (start < end && /\s/.test(text[start]!)) start++;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  return end > start && /[\p{L}\p{N}]/u.test(text.slice(start, Math.min(end, start + 200))) ? [start, end] : undefined;
}
