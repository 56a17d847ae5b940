// Coreference: what a pronoun or a definite description refers to. In the sources, a sentence that
// opens with "he" or "she" goes on about the person the previous sentence names first; "the viaduct"
// refers to the "Pellow Viaduct" the sources name. In the answer, a claim that opens with "it" or "they"
// is about the subject of the claim before it, or of the question.

import { isCapital, nameRuns, nameText } from '../language/names.js';
import { type Token, tokenize } from '../language/tokens.js';
import type { SourceView } from './retrieval.js';

export const personal = /^(?:he|she|his|her)\b/i;
/** How many sentences back a chain of "He ... He ..." may reach for its antecedent. */
const chainReach = 3;

/**
 * The person a sentence's opening "he" or "she" refers to: the first name in the previous sentence
 * that reads as a person's, following a chain of such sentences back. Undefined when none does.
 */
export function antecedentOf(view: SourceView, id: number): string | undefined {
  for (let back = id - 1; back >= 0 && back >= id - chainReach; back--) {
    const passage = view.index.passages[back]!;
    if (passage.source !== view.index.passages[id]!.source) return undefined;
    if (personal.test(passage.text)) continue;
    const tokens = tokenize(passage.text);
    const run = nameRuns(tokens).find((run) => personLike(tokens, run));
    if (run) return nameText(tokens, run);
    return undefined;
  }
  return undefined;
}

/** Nouns that describe a person ("cellist", "sculptor", "founder", "woman"). */
const personNoun = /(?:[^e]er|or|ist|ian|ess|ant|ent|man|woman|person|child|son|daughter|wife|husband|king|queen|prince|princess)s?$/;

/** Where a name's sentence goes on: past a parenthesis right after the name ("X (1902-1971) is a ..."). */
function afterParenthesis(tokens: Token[], e: number): number {
  let i = e;
  if (tokens[i]?.text === '(') while (i < tokens.length && tokens[i]!.text !== ')') i++;
  if (tokens[i]?.text === ')') i++;
  return i;
}

/** The head noun of a description ("a Dutch cellist" → "cellist", after its article). */
function descriptionHead(tokens: Token[]): Token | undefined {
  let head: Token | undefined;
  for (const t of tokens) {
    if (t.pos === 'NOUN') head = t;
    else if (!/^(?:ADJ|NUM|PROPN|ADV)$/.test(t.pos) && t.text !== '-') break;
  }
  return head;
}

/**
 * Whether a name reads as a person's: two capitalised words or more, no figure, no article before it
 * ("the Halden–Moor formula") nor "as" (an alias, a role played), and, where the sentence goes
 * on "X is a ...", described by a noun of a person ("a cellist", not "a 1902 locomotive").
 */
function personLike(tokens: Token[], [s, e]: [number, number]): boolean {
  const words = tokens.slice(s, e).filter((t) => isCapital(t));
  if (words.length < 2 || words.some((t) => /\d/.test(t.text)) || /^(?:the|a|an|as|'s|’s)$/.test(tokens[s - 1]?.lower ?? '')) return false;
  const i = afterParenthesis(tokens, e);
  if (tokens[i]?.lemma !== 'be' || !/^(?:a|an|the)$/.test(tokens[i + 1]?.lower ?? '')) return true;
  const head = descriptionHead(tokens.slice(i + 2));
  return head !== undefined && personNoun.test(head.lower);
}

export const opensWithPronoun = /^(?:it|its|they|their|them|he|his|she|her|this|these|that)\b/i;

/**
 * The name a claim that opens with a pronoun is about: the subject of the claim before it when that
 * subject is a name ("Wrenmouth was founded... It grew..."), or for the first claim the question's
 * first name. Empty when the claim names its own subject or the subject is no name ("the orchard").
 */
export function pronounSubject(claim: string, previous: string | undefined, question: string): Token[] {
  if (!opensWithPronoun.test(claim.trim())) return [];
  const tokens = tokenize(previous ?? question);
  const first = nameRuns(tokens)[0];
  // The previous claim's subject opens it; the question's may stand anywhere ("When is the X?").
  if (!first || (previous !== undefined && tokens.slice(0, first[0]).some((t) => t.content))) return [];
  return tokens.slice(first[0], first[1]).filter((t) => isCapital(t));
}

/**
 * Whether the name `run` of the claim is referred to in a passage by its head noun ("the viaduct"
 * for "the Pellow Viaduct") while the sources name it in full elsewhere.
 */
export function definitelyMentioned(tokens: Token[], run: [number, number], passages: { text: string }[], view: SourceView): boolean {
  const head = headNoun(tokens, run);
  return head !== undefined && passages.some((p) => refersByHead(p.text, head)) && view.mentionsExactly(nameText(tokens, run));
}

/** The common noun that heads a name of two words or more ("viaduct" of "Pellow Viaduct"), lower case. */
export function headNoun(tokens: Token[], [s, e]: [number, number]): string | undefined {
  const head = tokens[e - 1]!;
  return e - s >= 2 && /^\p{Lu}\p{Ll}+$/u.test(head.text) ? head.lower : undefined;
}

/** Whether a passage refers to a name by its head noun in lower case ("the viaduct"). */
export function refersByHead(passageText: string, head: string): boolean {
  return new RegExp(`\\b(?:[Tt]he|[Tt]his|[Tt]hat)\\s+${head}\\b`, 'u').test(passageText);
}

/**
 * What a claim that opens with "it" or "they" stands for, as the content words of the subject of the
 * claim before it ("night skiing" of "Night skiing was launched ... It's open on Fridays"). Empty
 * when the claim does not open with a pronoun or there is no claim before it.
 */
export function pronounAntecedent(claim: string, previous: string | undefined): Token[] {
  if (!previous || !opensWithPronoun.test(claim.trim())) return [];
  const tokens = tokenize(previous);
  // The subject ends at the first auxiliary ("was launched"), else at a verb after its first word (the
  // tagger reads some opening nouns as verbs: "spell checking").
  const aux = tokens.findIndex((t) => t.pos === 'AUX');
  const verb = aux >= 0 ? aux : tokens.findIndex((t, i) => i > 0 && t.pos === 'VERB');
  return tokens.slice(0, verb < 0 ? tokens.length : verb).filter((t) => t.content);
}
