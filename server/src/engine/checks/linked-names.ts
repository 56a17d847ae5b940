// Names a claim links must be linked in the sources: mentioned in one sentence, or in a sentence and
// the next one that goes on about it through a pronoun. "He" goes on about one person only (the one
// the previous sentence names first), not about every name in that sentence.

import { antecedentOf, headNoun, personal, refersByHead } from '../evidence/coreference.js';
import { retrieve, type SourceView } from '../evidence/retrieval.js';
import { negators } from '../language/lexicon.js';
import { namePattern, nameRuns, nameText } from '../language/names.js';
import { type Token, tokenize } from '../language/tokens.js';
import { type ClaimCheck, signal } from './check.js';

/** Verbs that may describe one name without linking it to another. */
const copulas = new Set(['be', 'have', 'do', 'become', 'seem']);
const continues = /^(?:he|she|it|they|his|her|its|their|this|these)\b/i;
/**
 * Two names the claim links that the sources never mention together, each named somewhere in them:
 * "The Kestrel Gazette is owned by Marlow Press" where Marlow Press only appears with the Tern Review.
 */
export function unlinkedNames(claimText: string, view: SourceView): [string, string] | undefined {
  const tokens = tokenize(claimText);
  // A verb links the names ("appeared in A and B"); the tagger reads some past tenses after a name as nouns.
  const verbal = (t: Token): boolean => (t.pos === 'VERB' || (t.pos === 'NOUN' && /[^e]ed$/.test(t.text))) && !copulas.has(t.lemma);
  if (!tokens.some(verbal)) return undefined;
  const runs = nameRuns(tokens).filter((run) => {
    const n = nameText(tokens, run);
    return n.length >= 3 && /\p{Ll}/u.test(n);
  });
  const names = runs.map((run) => nameText(tokens, run));
  // A name the sources give in full somewhere may stand in a passage as "the <head>" ("the viaduct").
  const heads = runs.map((run) => {
    const head = headNoun(tokens, run);
    return head !== undefined && view.mentionsExactly(nameText(tokens, run)) ? head : undefined;
  });
  if (names.length < 2) return undefined;
  // A claim that opens with its subject links each other name to it ("A appeared in B and C" needs
  // A with B and A with C, not B with C); otherwise every pair.
  const subjectFirst = runs[0]![0] === 0 || (runs[0]![0] === 1 && tokens[0]!.pos === 'DET');
  for (let a = 0; a < names.length; a++) {
    for (let b = a + 1; b < names.length; b++) {
      if (subjectFirst && a > 0) break;
      const [x, y] = [namePattern(names[a]!), namePattern(names[b]!)];
      const found = retrieve(view, [{ text: `${names[a]} ${names[b]}`, weight: 1 }], 12);
      const mentioned = (p: { text: string }, k: number, pattern: RegExp): boolean =>
        pattern.test(p.text) || (heads[k] !== undefined && refersByHead(p.text, heads[k]));
      const withX = found.filter((p) => mentioned(p, a, x)).map((p) => p.id);
      const withY = found.filter((p) => mentioned(p, b, y)).map((p) => p.id);
      if (withX.length === 0 || withY.length === 0) continue;
      // A next sentence that goes on about the previous one's subject ("He coached..."): with a
      // personal pronoun, only about the person it refers to.
      const goesOn = (first: number, second: number, nameInFirst: string): boolean => {
        const [p, q] = [view.index.passages[first]!, view.index.passages[second]!];
        if (second !== first + 1 || p.source !== q.source || !continues.test(q.text)) return false;
        if (!personal.test(q.text)) return true;
        const antecedent = antecedentOf(view, second);
        return antecedent === undefined || antecedent.includes(nameInFirst) || nameInFirst.includes(antecedent);
      };
      const together = (i: number, j: number): boolean => i === j || goesOn(i, j, names[a]!) || goesOn(j, i, names[b]!);
      if (withX.some((i) => withY.some((j) => together(i, j)))) continue;
      // Linked through a third name that each shares a sentence with ("A" is a barge run by the firm B; B
      // is owned by C): a chain the sources state is not a missing link.
      const namesIn = (ids: number[], own: string): Set<string> =>
        new Set(
          ids.flatMap((id) =>
            view
              .read(id, 0)
              .tokens.filter(
                (t, k, all) => t.pos === 'PROPN' && k > 0 && /^\p{Lu}\p{Ll}{2,}/u.test(t.text) && !/^[.!?"“]$/.test(all[k - 1]!.text),
              )
              .map((t) => t.text)
              .filter((w) => !own.includes(w)),
          ),
        );
      const viaX = namesIn(withX, `${names[a]} ${names[b]}`);
      if ([...namesIn(withY, `${names[a]} ${names[b]}`)].some((w) => viaX.has(w))) continue;
      return [names[a]!, names[b]!];
    }
  }
  return undefined;
}

export const linkedNamesCheck: ClaimCheck = {
  name: 'linked-names',
  kinds: { names_unlinked: 'unsupported' },
  run(claim) {
    if (claim.tokens.some((t) => negators.has(t.lower))) return [];
    const unlinked = unlinkedNames(claim.text, claim.context.view);
    return unlinked
      ? [signal('names_unlinked', 'unsupported', `The sources never mention ${unlinked[0]} together with ${unlinked[1]}.`)]
      : [];
  },
};
