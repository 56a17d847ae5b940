// Claims about two subjects at once: "A and B are both X" holds only if the sources say X in the
// sentences about A and in those about B; "A is X, but B is not" is contradicted when B's sentences
// say X. Word presence over the whole source cannot see this: each subject has its own sentences.

import type { SourceView } from '../evidence/retrieval.js';
import { stopwords } from '../language/lexicon.js';
import { tokenize } from '../language/tokens.js';
import { looseForms } from '../language/wording.js';
import { nameRun, sentencesAbout } from './options.js';

const jointWords = new Set(['both', 'each', 'all', 'two', 'share', 'common', 'same', 'also', 'too']);

export interface JointVerdict {
  /** The subject whose sentences do (or, for a denial, do not) say the predicate. */
  subject: string;
  passageIds: number[];
  holds: boolean;
}

/** The two names joined by "and" in `text`, if there are two. */
function pairOf(text: string, view: SourceView): [string, string, number] | undefined {
  const words = text.split(/\s+/);
  for (let i = 1; i < words.length - 1; i++) {
    if (words[i]!.toLowerCase() !== 'and') continue;
    const a = nameRun(words, i - 1, -1);
    const b = nameRun(words, i + 1, 1);
    if (a && b && !/^both$/i.test(a)) return [a.replace(/^Both\s+/, ''), b, i];
  }
  // Subjects whose names hold "and" themselves ("Gin and tonic and Paloma"): the split at an "and"
  // that leaves two things the sources both name.
  const m = /^(?:(?:are|were|is|was|do|did|have|has)\s+)?(.+?)\s+(?:(?:are|were|have|had)\s+)?both\b/i.exec(text.trim());
  if (!m) return undefined;
  const subjects = m[1]!.split(/\s+/);
  for (let i = 1; i < subjects.length - 1; i++) {
    if (subjects[i]!.toLowerCase() !== 'and') continue;
    const a = subjects.slice(0, i).join(' ');
    const b = subjects.slice(i + 1).join(' ');
    if (/^\p{Lu}/u.test(b) && view.mentions(a) && view.mentions(b)) return [a, b, i];
  }
  return undefined;
}

/** Share of the predicate's words found in a subject's sentences. */
function coverage(predicate: string[][], ids: number[], view: SourceView): number {
  const bag = new Set(ids.flatMap((id) => view.read(id, 0).tokens.flatMap((t) => [t.lower, t.lemma, t.stem])));
  return predicate.filter((forms) => forms.some((f) => bag.has(f))).length / predicate.length;
}

function predicateOf(text: string, names: string[]): string[][] {
  const nameWords = new Set(names.flatMap((n) => n.toLowerCase().split(/\s+/)));
  return tokenize(text)
    .filter((t) => t.content && !nameWords.has(t.lower) && !jointWords.has(t.lower) && !stopwords.has(t.lower))
    .map(looseForms);
}

/** "A and B are both X": whether each subject's sentences say X; undefined when not such a claim. */
export function checkBoth(text: string, view: SourceView): JointVerdict | undefined {
  if (!/\b(both|each|share[sd]?|in common)\b/i.test(text)) return undefined;
  const pair = pairOf(text, view);
  if (!pair) return undefined;
  const predicate = predicateOf(text, [pair[0], pair[1]]);
  if (predicate.length === 0) return undefined;
  const about = [sentencesAbout(pair[0], pair[1], view), sentencesAbout(pair[1], pair[0], view)];
  if (about[0]!.length === 0 || about[1]!.length === 0) return undefined;
  const shares = about.map((ids) => coverage(predicate, ids, view));
  const weaker = shares[0]! <= shares[1]! ? 0 : 1;
  // Each subject must carry the whole of a short predicate ("alternative rock bands"), most of a long one.
  const needed = predicate.length <= 3 ? 1 : 0.67;
  // When neither subject's sentences word the predicate, the sources may say it otherwise ("novelist"
  // and "poet" for "authors"): undecided, not denied.
  if (shares[1 - weaker]! < needed) return undefined;
  return { subject: pair[weaker]!, passageIds: about[weaker]!, holds: shares[weaker]! >= needed };
}

/** "A is X, but B is not": whether B's sentences say X after all (then the denial is wrong). */
export function checkContrast(sentence: string, view: SourceView): JointVerdict | undefined {
  const m =
    /^(?:(?:yes|no)[,!.]?\s+)?(.+?)\s+(?:is|are|was|were)\s+(.+?),?\s+(?:but|while|whereas)\s+(.+?)\s+(?:is|are|was|were)\s*(?:not|n't)\s*(?:an?\s+)?(?:\2)?[.!]?$|^(.+?)\s+(?:is|are|was|were)\s+(.+?),\s+(.+?)\s+(?:isn't|aren't|wasn't|weren't)[.!]?$/i.exec(
      sentence.trim(),
    );
  if (!m) return undefined;
  const [a, predicateText, b] = m[1] ? [m[1], m[2]!, m[3]!] : [m[4]!, m[5]!, m[6]!];
  const predicate = predicateOf(predicateText, [a, b]);
  if (predicate.length === 0) return undefined;
  const ids = sentencesAbout(b, a, view);
  if (ids.length === 0) return undefined;
  return { subject: b, passageIds: ids, holds: coverage(predicate, ids, view) < 0.5 };
}
