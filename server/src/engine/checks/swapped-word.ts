// A modifier swapped inside a phrase the sources use: "the express lane" where they only ever say
// "the standard lane".
import type { ReadPassage } from '../evidence/retrieval.js';
import type { Token } from '../language/tokens.js';
import { type ClaimCheck, type Signal, signal } from './check.js';

/**
 * A word the sources never use, in a phrase they do use with another word in its place: "a red ski
 * run" where they say "a blue ski run". The claim swapped the word (contradicted).
 */
export function swappedWord(
  tokens: Token[],
  absent: (t: Token) => boolean,
  passages: ReadPassage[],
): { said: string; instead: string; passage: ReadPassage } | undefined {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    // Only a modifier: a noun may be the answer's synonym ("boat" for "vessel"), a modifier names a kind.
    if (!t.content || t.pos !== 'ADJ' || !absent(t)) continue;
    const after = tokens.slice(i + 1, i + 3);
    if (after.length < 2 || !after.every((a) => a.content && (a.pos === 'NOUN' || a.pos === 'ADJ'))) continue;
    for (const passage of passages) {
      const p = passage.tokens;
      for (let j = 1; j + 2 < p.length + 1; j++) {
        if (p[j]?.lemma !== after[0]!.lemma || p[j + 1]?.lemma !== after[1]!.lemma) continue;
        const other = p[j - 1]!;
        if (other.content && other.pos === 'ADJ' && other.lemma !== t.lemma)
          return {
            said: `${t.text} ${after.map((a) => a.text).join(' ')}`,
            instead: `${other.text} ${after.map((a) => a.text).join(' ')}`,
            passage,
          };
      }
    }
  }
  return undefined;
}

export const namingCheck: ClaimCheck = {
  name: 'swapped-word',
  kinds: { word_swapped: 'contradicted' },
  run(claim) {
    const signals: Signal[] = [];
    const swapped = swappedWord(claim.tokens, claim.absent, claim.bound);
    if (swapped)
      signals.push(
        signal('word_swapped', 'contradicted', `The sources say "${swapped.instead}", not "${swapped.said}".`, {
          passage: swapped.passage,
        }),
      );
    return signals;
  },
};
