// Words and names said otherwise than the sources say them: a modifier swapped inside a phrase the
// sources use ("narrow gauge track" for "standard gauge track") and a name given after "officially
// known as" where the sources give another.
import type { ReadPassage } from '../evidence/retrieval.js';
import type { Token } from '../language/tokens.js';

/**
 * A word the sources never use, in a phrase they do use with another word in its place: "a narrow
 * gauge track" where they say "a standard gauge track". The claim swapped the word (contradicted).
 */
export function swappedWord(
  tokens: Token[],
  absent: (t: Token) => boolean,
  passages: ReadPassage[],
): { said: string; instead: string; passage: ReadPassage } | undefined {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    // Only a modifier: a noun may be the answer's synonym ("freight" for "cargo"), a modifier names a kind.
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

const aliasPhrase =
  /\b((?:officially|also|better|formerly|commonly|popularly)\s+(?:known|called|named)\s+(?:as\s+)?)(?:the\s+)?([^.,;:()]+)/i;

/**
 * A name given after "officially known as" (or "also / better known as") where the sources give
 * another after the same words: "officially known as the 2017 Deaflympics" where they say "officially
 * known as the 23rd Summer Deaflympics".
 */
export function aliasMismatch(
  claimText: string,
  passages: ReadPassage[],
): { said: string; instead: string; passage: ReadPassage } | undefined {
  const m = aliasPhrase.exec(claimText);
  if (!m) return undefined;
  const phrase = m[1]!.trim().toLowerCase().replace(/\s+/g, ' ');
  const said = m[2]!.trim().replace(/["“”]/g, '');
  for (const passage of passages) {
    const s = aliasPhrase.exec(passage.text);
    if (!s || s[1]!.trim().toLowerCase().replace(/\s+/g, ' ') !== phrase) continue;
    const instead = s[2]!.trim().replace(/["“”]/g, '');
    const norm = (x: string): string =>
      x
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim();
    if (norm(instead).startsWith(norm(said)) || norm(said).startsWith(norm(instead))) return undefined;
    return { said, instead, passage };
  }
  return undefined;
}
