// A list the answer gives as the whole of a set ("The current members are A and B") where the sources
// give the same names in one list with others ("members A and B, guitarist C, and bassist D"): the
// answer leaves some out, so the set it states is not the sources'.
import type { ReadPassage } from '../evidence/retrieval.js';
import { isCapital, mentionsOf, nameRuns, nameText } from '../language/names.js';
import { type Token, tokenize } from '../language/tokens.js';

export interface ShortList {
  missing: string[];
  passage: ReadPassage;
}

/** Tokens that may stand inside a list of names: the names, commas, "and", role nouns and their modifiers. */
function inList(t: Token): boolean {
  return t.text === ',' || t.lower === 'and' || t.pos === 'PROPN' || t.pos === 'NOUN' || t.pos === 'ADJ';
}

/** The names a claim "The <plural noun> ... are/were A, B and C" gives as the whole set; undefined otherwise. */
function statedSet(tokens: Token[]): string[] | undefined {
  const be = tokens.findIndex((t) => t.lower === 'are' || t.lower === 'were');
  if (be <= 0 || tokens[0]!.lower !== 'the' || !tokens.slice(0, be).some((t) => t.pos === 'NOUN' && t.lower !== t.lemma)) return undefined;
  const tail = tokens.slice(be + 1).filter((t) => !/^[.!]$/.test(t.text));
  if (tail.length === 0 || !tail.every((t) => (isCapital(t) && t.pos === 'PROPN') || t.text === ',' || t.lower === 'and')) return undefined;
  const names = nameRuns(tail).map((run) => nameText(tail, run));
  return names.length >= 2 ? names : undefined;
}

export function shortList(claimText: string, passages: ReadPassage[]): ShortList | undefined {
  const listed = statedSet(tokenize(claimText));
  if (!listed) return undefined;
  for (const passage of passages) {
    const tokens = passage.tokens;
    const spans = listed.map((name) => mentionsOf(passage.text, tokens, name)[0]);
    if (spans.some((span) => span === undefined)) continue;
    const from = Math.min(...spans.map((span) => span![0]));
    const to = Math.max(...spans.map((span) => span![1]));
    // The claim's names must stand in one list, which may go on either side of them.
    if (!tokens.slice(from, to).every(inList)) continue;
    let start = from;
    while (start > 0 && inList(tokens[start - 1]!)) start--;
    let end = to;
    while (end < tokens.length && inList(tokens[end]!)) end++;
    const list = tokens.slice(start, end);
    const missing = nameRuns(list)
      .filter(([s, e]) => list.slice(s, e).every((t) => t.pos === 'PROPN'))
      .map((run) => nameText(list, run))
      .filter((name) => !listed.some((n) => n.includes(name) || name.includes(n)));
    if (missing.length > 0) return { missing, passage };
  }
  return undefined;
}
