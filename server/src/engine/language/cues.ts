// Cues of general English the checks share: what counts as a name or a bare answer, idioms whose
// words say nothing literal, and shared word roots.
import { stopwords } from './lexicon.js';
import type { Token } from './tokens.js';

const months = 'january|february|march|april|may|june|july|august|september|october|november|december';
const days = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday';
/** Months and days ("Tuesdays" too): they name a time, never a subject. */
const calendarWords = new RegExp(`^(?:${months}|(?:${days})s?)$`, 'i');
/** The same with the short forms timetables use ("Mon-Fri, 7:00-20:00", "Sep"). */
export const calendarWordsOrShort = new RegExp(
  `^(?:${months}|(?:${days})s?|(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)s?|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)$`,
  'i',
);

/** Words that open a clause ("once you…", "once the…"), where "once" is "as soon as" rather than a count. */
export const opensClause =
  /^(?:i|you|we|they|he|she|it|there|the|your|our|their|its|his|her|my|this|that|these|those|all|everything|everyone|someone|anyone|each)$/;

export function isName(token: Token, index: number, tokens: Token[]): boolean {
  if (!/^\p{Lu}/u.test(token.text) || (!/[\p{L}]{2,}/u.test(token.text) && !/^[IVX]+$/.test(token.text))) return false;
  if (calendarWords.test(token.text)) return false;
  // A function word is never a name, even capitalised ("With Premium Cover, ..."); nor is a unit
  // after a figure ("10 GB", "20 KM").
  if (stopwords.has(token.lower) || /^\d/.test(tokens[index - 1]?.text ?? '')) return false;
  // A capital opening the claim is only a name when the next word is capitalised too ("Pellow Viaduct").
  if (index === 0) return /^\p{Lu}/u.test(tokens[1]?.text ?? '') && tokens[1]!.pos === 'PROPN';
  return token.pos === 'PROPN' || token.content;
}

/** An answer that is only a name, a figure or a date: no verb, a few words. */
export function isBare(tokens: Token[]): boolean {
  const words = tokens.filter((t) => /[\p{L}\p{N}]/u.test(t.text));
  return words.length <= 6 && !tokens.some((t) => t.pos === 'VERB' || t.pos === 'AUX');
}

/**
 * Everyday idioms whose words say nothing literal ("out of the box", "not on the cards"): their words
 * are neither looked for nor missed. General English only.
 */
const idiomPattern =
  /\b(?:out of the box|on the cards|off the table|free of charge|at no (?:extra )?(?:cost|charge)|up front|on top of that|in a row|kicks? in|for good|in the end|by the way|as (?:well|far as)|in (?:advance|time|full|total)|of course|at all times|so far|for (?:example|instance)|in principle)\b/gi;

export function idiomSpans(text: string): [number, number][] {
  return [...text.matchAll(idiomPattern)].map((m) => [m.index, m.index + m[0].length]);
}

/** Derivation the lemmatiser does not undo ("admit" / "admission", "repair" / "repairable"). */
export function sharesRoot(t: Token, words: string[]): boolean {
  const word = t.lemma.length >= t.lower.length ? t.lower : t.lemma;
  if (word.length < 5) return false;
  const root = word.slice(0, Math.max(5, Math.ceil(word.length * 0.7)) - (word.length > 7 ? 1 : 0));
  return words.some((f) => f.startsWith(root) || (f.length >= 5 && word.startsWith(f.slice(0, Math.max(5, Math.ceil(f.length * 0.7))))));
}

const beForms = /^(?:am|is|are|was|were|be|been|being|get|gets|got|have|has|had)$/;
/** Words after which "provided" is the verb's participle ("provided by", "provided free", "provided in the hall"). */
const afterParticiple =
  /^(?:by|for|in|at|on|with|to|from|under|free|as|below|above|here|there|and|or|inside|within|through|upon|via|only|separately|locally|online)$/;
/** Words after which it is the verb ("for providing meals", "as provided"). */
const beforeVerb = /^(?:by|for|of|from|about|after|before|without|as|being|not|also|were)$/;

/**
 * Whether "provided"/"providing" opens a condition ("free, provided you book") rather than being the verb
 * ("the rails provided", "towels are provided in every room", "providing meals for guests"): a conjunction
 * has a clause after it and no form of "be" or "have" before it. `before`/`after` are the neighbouring words,
 * lower case, or undefined where punctuation or the text's edge stands.
 */
export function providedOpensCondition(before: string | undefined, after: string | undefined): boolean {
  if (after === undefined || afterParticiple.test(after) || (before !== undefined && beforeVerb.test(before))) return false;
  return after === 'that' || before === undefined || !beForms.test(before);
}

/** The same for a token at `index` ("provided" or "providing"); any other token is no such conjunction. */
export function providedAt(tokens: Token[], index: number): boolean {
  const word = (i: number): string | undefined => {
    const t = tokens[i];
    return t && /\p{L}/u.test(t.text) ? t.lower : undefined;
  };
  return /^provid(?:ed|ing)$/.test(tokens[index]?.lower ?? '') && providedOpensCondition(word(index - 1), word(index + 1));
}
