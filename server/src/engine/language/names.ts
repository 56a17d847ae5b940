// Names in tokenised text: runs of capitalised words with the short connectors that names hold
// ("Escuela de Vela y Remo", "Priory of St. Wendel"), and where a name occurs in a passage.
import type { Token } from './tokens.js';

const connectors = /^(?:of|de|la|le|y|e|von|van|der|den|del|della|di|da|du|dos|das|\.|"|“|”)$/;
/** Initials open a name when a capitalised word follows ("K.L. Bakery", "J. P. Ormsby"). */
const initials = /^(?:\p{Lu}\.)+$/u;

export function isCapital(t: Token): boolean {
  return /^\p{Lu}/u.test(t.text);
}

/** A token that opens a name: a capitalised word, or initials before one; the opening word only if a proper noun. */
function opensName(tokens: Token[], i: number): boolean {
  const t = tokens[i]!;
  const wordLike = /\p{L}{2,}/u.test(t.text) || (initials.test(t.text) && isCapital(tokens[i + 1] ?? t));
  return isCapital(t) && wordLike && !(i === 0 && t.pos !== 'PROPN');
}

/** Where the name opening at `i` ends: past capitals and the connectors between them. */
function nameEnd(tokens: Token[], i: number): number {
  let j = i + 1;
  while (j < tokens.length && (isCapital(tokens[j]!) || (connectors.test(tokens[j]!.text) && isCapital(tokens[j + 1] ?? tokens[j]!)))) j++;
  // A name does not end in a connector or a quote ("Bea" in "Beatrix "Bea"").
  while (j > i + 1 && connectors.test(tokens[j - 1]!.text)) j--;
  return j;
}

/** Runs of capitalised tokens (a name), allowing short connectors inside; `[start, end)` token indices. */
export function nameRuns(tokens: Token[]): [number, number][] {
  const runs: [number, number][] = [];
  let i = 0;
  while (i < tokens.length) {
    if (!opensName(tokens, i)) {
      i++;
      continue;
    }
    const j = nameEnd(tokens, i);
    runs.push([i, j]);
    i = j;
  }
  return runs;
}

/** The name as written: its tokens, with a space only where the text has one. */
export function nameText(tokens: Token[], [s, e]: [number, number]): string {
  let text = tokens[s]!.text;
  for (let k = s + 1; k < e; k++) text += (tokens[k]!.start > tokens[k - 1]!.end ? ' ' : '') + tokens[k]!.text;
  return text;
}

/** Names the claim gives, as text (runs of capitalised words; an opening capital only if a proper noun). */
export function claimNames(tokens: Token[]): string[] {
  return nameRuns(tokens).map((run) => nameText(tokens, run));
}

/** A pattern that finds the name as a whole word sequence. */
export function namePattern(name: string, flags = 'u'): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, flags);
}

/** Where the name stands in a passage, as token ranges `[s, e)` of its tokens. */
export function mentionsOf(text: string, tokens: Token[], name: string): [number, number][] {
  const found: [number, number][] = [];
  for (const m of text.matchAll(namePattern(name, 'gu'))) {
    const s = tokens.findIndex((t) => t.start >= m.index);
    let e = s;
    while (e >= 0 && e < tokens.length && tokens[e]!.end <= m.index + m[0].length) e++;
    if (s >= 0 && e > s) found.push([s, e]);
  }
  return found;
}
