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

/** A verb links the names ("appeared in A and B"); the tagger reads some past tenses after a name as nouns. */
function isLinkingVerb(t: Token): boolean {
  return (t.pos === 'VERB' || (t.pos === 'NOUN' && /[^e]ed$/.test(t.text))) && !copulas.has(t.lemma);
}

/** A name as the claim gives it, and the head noun a passage may call it by ("the viaduct"). */
interface LinkedName {
  name: string;
  head: string | undefined;
}

function mentionedIn(p: { text: string }, pattern: RegExp, head: string | undefined): boolean {
  return pattern.test(p.text) || (head !== undefined && refersByHead(p.text, head));
}

/**
 * A next sentence that goes on about the previous one's subject ("He coached..."): with a personal
 * pronoun, only about the person it refers to.
 */
function goesOn(view: SourceView, first: number, second: number, nameInFirst: string): boolean {
  const [p, q] = [view.index.passages[first]!, view.index.passages[second]!];
  if (second !== first + 1 || p.source !== q.source || !continues.test(q.text)) return false;
  if (!personal.test(q.text)) return true;
  const antecedent = antecedentOf(view, second);
  return antecedent === undefined || antecedent.includes(nameInFirst) || nameInFirst.includes(antecedent);
}

/** Capitalised words of proper nouns inside sentences of the passages `ids`, less those of `own`. */
function namesIn(view: SourceView, ids: number[], own: string): Set<string> {
  return new Set(
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
}

/** Whether the sources mention both names, and never together, nor through a third name. */
function unlinkedPair(view: SourceView, a: LinkedName, b: LinkedName): boolean {
  const [x, y] = [namePattern(a.name), namePattern(b.name)];
  const found = retrieve(view, [{ text: `${a.name} ${b.name}`, weight: 1 }], 12);
  const withX = found.filter((p) => mentionedIn(p, x, a.head)).map((p) => p.id);
  const withY = found.filter((p) => mentionedIn(p, y, b.head)).map((p) => p.id);
  if (withX.length === 0 || withY.length === 0) return false;
  // One record of field lines ("Room 2: Garden Twin" / "Rate: Advance Saver") links what its lines name, and a
  // section's heading what the passages under it name.
  const together = (i: number, j: number): boolean =>
    i === j ||
    goesOn(view, i, j, a.name) ||
    goesOn(view, j, i, b.name) ||
    view.recordOf(i).includes(j) ||
    view.headingOf(i) === j ||
    view.headingOf(j) === i;
  if (withX.some((i) => withY.some((j) => together(i, j)))) return false;
  // Linked through a third name that each shares a sentence with ("A" is a barge run by the firm B; B
  // is owned by C): a chain the sources state is not a missing link.
  const viaX = namesIn(view, withX, `${a.name} ${b.name}`);
  return ![...namesIn(view, withY, `${a.name} ${b.name}`)].some((w) => viaX.has(w));
}

/**
 * The pairs of names to find linked: a claim that opens with its subject links each other name to
 * it ("A appeared in B and C" needs A with B and A with C, not B with C); otherwise every pair.
 */
function namePairs(count: number, subjectFirst: boolean): [number, number][] {
  const pairs: [number, number][] = [];
  for (let a = 0; a < (subjectFirst ? Math.min(1, count) : count); a++) for (let b = a + 1; b < count; b++) pairs.push([a, b]);
  return pairs;
}

/**
 * Two names the claim links that the sources never mention together, each named somewhere in them:
 * "The Kestrel Gazette is owned by Marlow Press" where Marlow Press only appears with the Tern Review.
 */
export function unlinkedNames(claimText: string, view: SourceView): [string, string] | undefined {
  const tokens = tokenize(claimText);
  if (!tokens.some(isLinkingVerb)) return undefined;
  const runs = nameRuns(tokens).filter((run) => {
    const n = nameText(tokens, run);
    // One capitalised word opening the claim before a label's colon or a noun it qualifies is an ordinary
    // word ("Export: …", "Group size: …", "Single adult fares …"); before a verb it is a name ("Millstone is …").
    const opening = run[0] === 0 && run[1] === 1 && /^(?::|NOUN|ADJ)$/.test(tokens[1]?.text === ':' ? ':' : (tokens[1]?.pos ?? ''));
    return n.length >= 3 && /\p{Ll}/u.test(n) && !opening;
  });
  // A name the sources give in full somewhere may stand in a passage as "the <head>" ("the viaduct").
  const names: LinkedName[] = runs.map((run) => {
    const name = nameText(tokens, run);
    const head = headNoun(tokens, run);
    return { name, head: head !== undefined && view.mentionsExactly(name) ? head : undefined };
  });
  if (names.length < 2) return undefined;
  const subjectFirst = runs[0]![0] === 0 || (runs[0]![0] === 1 && tokens[0]!.pos === 'DET');
  const pair = namePairs(names.length, subjectFirst).find(([a, b]) => unlinkedPair(view, names[a]!, names[b]!));
  return pair && [names[pair[0]]!.name, names[pair[1]]!.name];
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
