// What a claim classifies a named subject as must be found in the sentences about that subject:
// "Tracy + the Plastics is a variant of electropop" where "variant" only stands in "Electropop is a
// variant of synth-pop" says of the artist what the sources say of the genre. Sentences about the
// subject are those naming it (by its last word too: "Sharma" for "Neha Sharma") and the next one
// when it goes on with a pronoun.
import { type ReadPassage, retrieve, type SourceView } from '../evidence/retrieval.js';
import { namePattern, nameRuns, nameText } from '../language/names.js';
import type { Token } from '../language/tokens.js';
import { isCommon, looseForms } from '../language/wording.js';

const continues = /^(?:he|she|it|they|his|her|its|their)\b/i;

/** The name a claim opens with ("Kelm Fair ...", "The Kelm Fair ..."), as its token range. */
function openingSubject(tokens: Token[]): [number, number] | undefined {
  const first = nameRuns(tokens)[0];
  if (!first) return undefined;
  return first[0] === 0 || (first[0] === 1 && tokens[0]!.pos === 'DET') ? first : undefined;
}

function holds(passage: ReadPassage, t: Token): boolean {
  return looseForms(t).some((f) => passage.bag.has(f));
}

/**
 * A specific word of what the claim classifies its subject as that the sources use only away from the
 * subject, where they do name it; undefined when the claim is no such classification or the word is
 * found with the subject.
 */
export function wordAwayFromSubject(tokens: Token[], view: SourceView): { word: string; subject: string } | undefined {
  const run = openingSubject(tokens);
  if (!run) return undefined;
  const subject = nameText(tokens, run);
  // One capitalised word opening the claim may be an ordinary word ("Credits for both tiers..."): it
  // is a name only if the sources capitalise it inside a sentence too.
  if (run[1] - run[0] === 1) {
    const inside = new RegExp(`[\\p{Ll},] ${subject.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'u');
    if (!retrieve(view, [{ text: subject, weight: 1 }], 8).some((p) => inside.test(p.text))) return undefined;
  }
  const last = tokens[run[1] - 1]!.text;
  const pattern = namePattern(last.length >= 3 ? last : subject);
  // What the claim classifies the subject as: the noun phrase right after "is a / was the" ("a
  // variant", "the main antagonist"), up to its first preposition or clause. The objects of other
  // verbs need not stand with the subject ("Fairhaven charges $8 for a cashier's check").
  // (The name may run on past what reads as one: "Tracy + the Plastics is ...".)
  const be = tokens.findIndex((t, i) => i >= run[1] && i <= run[1] + 3 && t.lemma === 'be');
  if (be < 0 || tokens.slice(run[1], be).some((t) => t.pos === 'VERB') || !/^(?:a|an|the)$/.test(tokens[be + 1]?.lower ?? ''))
    return undefined;
  const phrase: Token[] = [];
  for (const t of tokens.slice(be + 2)) {
    if (t.pos !== 'NOUN' && t.pos !== 'ADJ' && t.text !== '-') break;
    phrase.push(t);
  }
  const specific = phrase.filter((t) => t.content && !/^\p{Lu}/u.test(t.text) && !isCommon(t));
  for (const word of specific) {
    const found = retrieve(view, [{ text: `${subject} ${word.text}`, weight: 1 }], 12);
    const withWord = found.filter((p) => holds(p, word));
    if (withWord.length === 0) continue;
    const aboutSubject = found.filter((p) => pattern.test(p.text));
    if (aboutSubject.length === 0) continue;
    const near = (p: ReadPassage): boolean =>
      aboutSubject.some((s) => s.id === p.id || (p.id === s.id + 1 && p.source === s.source && continues.test(p.text)));
    if (!withWord.some(near)) return { word: word.text, subject };
  }
  return undefined;
}
