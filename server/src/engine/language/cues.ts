// Claim-level signals the judge combines: what counts as a name or a bare answer, limits a
// question's figure breaks, idioms, variants of a name and shared word roots. Pure helpers.
import type { ReadPassage } from '../evidence/retrieval.js';
import { praiseWords } from './lexicon.js';
import { comparableKinds, type Quantity } from './quantities.js';
import { formsOf, type Token } from './tokens.js';
import { looseForms } from './wording.js';

const calendarWords =
  /^(january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday)$/i;

export function isName(token: Token, index: number, tokens: Token[]): boolean {
  if (!/^\p{Lu}/u.test(token.text) || (!/[\p{L}]{2,}/u.test(token.text) && !/^[IVX]+$/.test(token.text))) return false;
  if (calendarWords.test(token.text)) return false;
  // A capital opening the claim is only a name when the next word is capitalised too ("Orrin Canal").
  if (index === 0) return /^\p{Lu}/u.test(tokens[1]?.text ?? '') && tokens[1]!.pos === 'PROPN';
  return token.pos === 'PROPN' || token.content;
}

/** An answer that is only a name, a figure or a date: no verb, a few words. */
export function isBare(tokens: Token[]): boolean {
  const words = tokens.filter((t) => /[\p{L}\p{N}]/u.test(t.text));
  return words.length <= 6 && !tokens.some((t) => t.pos === 'VERB' || t.pos === 'AUX');
}

export function quantifiesSourceNoun(tokens: Token[], index: number, passage: ReadPassage): boolean {
  const noun = tokens.slice(index + 1, index + 4).find((t) => t.content);
  return noun !== undefined && formsOf(noun).some((f) => passage.bag.has(f));
}

const upperLimit = /\b(?:at most|up to|no more than|a maximum of|maximum|under|less than|below|within)\s+$/i;
const lowerLimit = /\b(?:at least|no less than|a minimum of|minimum|more than|over|above|from)\s+$/i;

/** The limit phrase of a passage that one of the question's figures breaks, if any. */
export function brokenLimit(figures: Quantity[], passages: ReadPassage[]): string | undefined {
  for (const passage of passages) {
    for (const limit of passage.quantities) {
      const before = passage.text.slice(Math.max(0, limit.start - 24), limit.start);
      const upper = upperLimit.test(before);
      if (!upper && !lowerLimit.test(before)) continue;
      // Only a measure with its unit named on both sides ("25 kg" / "10 kg"): durations, times and
      // percentages come in tiers and ranges whose limits a figure may well pass.
      const breaking = figures.find(
        (f) =>
          f.kind === 'count' &&
          limit.kind === 'count' &&
          f.label !== undefined &&
          comparableKinds(f, limit) &&
          (upper ? f.value > limit.value : f.value < limit.value),
      );
      if (breaking) return `${(upper ? upperLimit : lowerLimit).exec(before)![0]}${limit.text}`;
    }
  }
  return undefined;
}

/**
 * Everyday idioms whose words say nothing literal ("out of the box", "not on the cards"): their words
 * are neither looked for nor missed. General English only.
 */
const idiomPattern =
  /\b(?:out of the box|on the cards|off the table|free of charge|at no (?:extra )?(?:cost|charge)|up front|on top of that|in a row|kicks? in|for good|in the end|by the way|as (?:well|far as)|in (?:advance|time|full|total)|of course|at all times|so far)\b/gi;

export function idiomSpans(text: string): [number, number][] {
  return [...text.matchAll(idiomPattern)].map((m) => [m.index, m.index + m[0].length]);
}

/**
 * A name the sources give only for a longer variant of the claim's subject: "the Pulse 3 supports
 * LDAC" where every passage with LDAC names the "Pulse 3 Pro". Phrases are runs of capitalised words
 * and numbers; the subject is one with a number or of two words or more.
 */
export function variantOwner(text: string, passages: ReadPassage[]): string | undefined {
  const phrases = [...text.matchAll(/\b[\p{Lu}\d][\p{L}\d.-]*(?:\s+[\p{Lu}\d][\p{L}\d.-]*)*/gu)].map((m) =>
    m[0].replace(/[.]$/, '').replace(/^(?:The|A|An)\s+/, ''),
  );
  const subjects = phrases.filter((p) => /\s/.test(p) && /\d/.test(p));
  for (const subject of subjects) {
    const escaped = subject.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const standalone = new RegExp(`\\b${escaped}\\b(?!\\s+[\\p{Lu}\\d])`, 'u');
    const longer = new RegExp(`\\b${escaped}\\s+([\\p{Lu}][\\p{L}]*)`, 'u');
    for (const other of phrases) {
      if (other === subject || subject.includes(other) || !/^\p{Lu}{2,}|^\p{Lu}\p{L}+$/u.test(other)) continue;
      // The clauses that hold the other name must all name the longer variant, and none the subject.
      const mention = new RegExp(`\\b${other.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'u');
      const holding = passages.flatMap((p) => p.text.split(/[;:]\s|\.\s/)).filter((clause) => mention.test(clause));
      if (holding.length === 0 || holding.some((clause) => standalone.test(clause) || !longer.test(clause))) continue;
      const owner = longer.exec(holding[0]!)!;
      return `The sources give ${other} for the ${subject} ${owner[1]}, not the ${subject}.`;
    }
  }
  return undefined;
}

/** Derivation the lemmatiser does not undo ("refund" / "refundable", "enrolled" / "enrolment"). */
export function sharesRoot(t: Token, words: string[]): boolean {
  const word = t.lemma.length >= t.lower.length ? t.lower : t.lemma;
  if (word.length < 5) return false;
  const root = word.slice(0, Math.max(5, Math.ceil(word.length * 0.7)) - (word.length > 7 ? 1 : 0));
  return words.some((f) => f.startsWith(root) || (f.length >= 5 && word.startsWith(f.slice(0, Math.max(5, Math.ceil(f.length * 0.7))))));
}

/**
 * A word of praise the claim adds ("his favorite opera", "the famous hitman") that neither the
 * question nor the sources use, in any form or synonym: an embellishment the sources do not make.
 */
export function addedPraise(tokens: Token[], asked: Set<string>, inSources: (form: string) => boolean): Token | undefined {
  return tokens.find(
    (t) =>
      (praiseWords.has(t.lower) || praiseWords.has(t.lemma)) &&
      !formsOf(t).some((f) => asked.has(f)) &&
      !looseForms(t).some((f) => inSources(f)),
  );
}
