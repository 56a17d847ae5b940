// A universal where the sources restrict: "always", "every", "any" against an "only", "unless" or
// "if", a limit with a figure ("at least 48 hours", "under 12"), a word that narrows the noun
// ("standard loans" where the answer says "all loans"), or the people they name ("open to members"
// where the answer says "anyone").
import type { ClaimReading } from '../../claims/reading.js';
import type { ReadPassage } from '../../evidence/retrieval.js';
import { providedAt } from '../../language/cues.js';
import { negators, restrictions, universals } from '../../language/lexicon.js';
import { sameQuantity } from '../../language/quantities.js';
import { formBag, formsOf, type Token } from '../../language/tokens.js';
import { type Signal, signal } from '../check.js';

const limitPhrase =
  /\b(?:at least|at most|up to|no more than|no later than|no less than|a minimum of|a maximum of|more than|less than|over|under|within)\s+(?=[$€£\d]|(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve)\b)/i;

/** Whether the passage speaks of the noun: in one of its forms, or as the head of a compound ("weekdays" of "day"). */
function spokenOf(noun: Token, passage: ReadPassage): boolean {
  return (
    formsOf(noun).some((f) => passage.bag.has(f)) ||
    passage.tokens.some((t) => t.content && t.lemma.length >= noun.lemma.length + 3 && t.lemma.endsWith(noun.lemma))
  );
}

/**
 * Whether a determiner quantifies over what the passage speaks of: its noun ("every day"), or the
 * noun it qualifies ("children of any age").
 */
function quantifiesSourceNoun(tokens: Token[], index: number, passage: ReadPassage): boolean {
  const noun = tokens.slice(index + 1, index + 4).find((t) => t.content);
  const owner = tokens[index - 1]?.lower === 'of' ? tokens[index - 2] : undefined;
  return (noun !== undefined && spokenOf(noun, passage)) || (owner?.content === true && spokenOf(owner, passage));
}

/** Whether the claim or its question says a word, in any of its forms. */
function saidBy(claim: ClaimReading): (t: Token) => boolean {
  const bag = formBag(claim.tokens);
  return (t) => formsOf(t).some((f) => bag.has(f) || claim.context.questionBag.has(f));
}

/**
 * A word the passage puts before the noun a determiner quantifies, which neither the claim nor the
 * question says: "standard loans" where the answer says "all loans". A universal in the passage
 * ("all guest rooms") makes it a description, not a limit.
 */
function droppedModifier(claim: ClaimReading, index: number, passage: ReadPassage): Token | undefined {
  const determiner = claim.tokens[index];
  // "both" counts named things rather than a class.
  if (determiner?.pos !== 'DET' || determiner.lower === 'both') return undefined;
  const noun = claim.tokens.slice(index + 1, index + 4).find((t) => t.content);
  if (!noun) return undefined;
  const said = saidBy(claim);
  const p = passage.tokens;
  for (let i = 1; i < p.length; i++) {
    if (!formsOf(p[i]!).some((f) => formsOf(noun).includes(f))) continue;
    const before = p[i - 1]!;
    if (!before.content || !['ADJ', 'NOUN', 'PROPN'].includes(before.pos) || said(before)) continue;
    if (p.slice(Math.max(0, i - 4), i - 1).some((t) => universals.has(t.lower))) continue;
    return before;
  }
  return undefined;
}

/** Whether the token at `index` sits in a condition the claim sets ("if you use it every day"), back to its clause's start. */
function insideCondition(tokens: Token[], index: number): boolean {
  for (let k = index - 1; k >= 0 && !/^[,;:.!?]$/.test(tokens[k]!.lower); k--)
    if (/^(?:if|unless|whenever|when|once|assuming|supposing)$/.test(tokens[k]!.lower) || providedAt(tokens, k)) return true;
  return false;
}

/**
 * Whether a universal claims the whole of what it quantifies: not under a negation ("without any
 * treatment" is none), nor of what is left ("all the other days" has already set the exception apart),
 * nor inside a condition the claim sets, which supposes a case and claims nothing of all of them.
 */
function claimsTheWhole(claim: ClaimReading, index: number): boolean {
  const { tokens } = claim;
  if (negators.has(tokens[index - 1]?.lower ?? '') || insideCondition(tokens, index) || boundedByAnswer(tokens, index)) return false;
  if (tokens[index]!.lower === 'each' && distributes(claim, index)) return false;
  return !tokens.slice(index + 1, index + 3).some((t) => /^(?:other|others|remaining|rest|else)$/.test(t.lower));
}

/** "any bags beyond the first two", "any hours over 40": the answer bounds its own universal. */
function boundedByAnswer(tokens: Token[], index: number): boolean {
  return tokens.slice(index + 2, index + 5).some((t) => /^(?:beyond|over|above|after|under|below|past|exceeding|outside)$/.test(t.lower));
}

/**
 * "each" that deals a figure out per item ("£2 on each ticket", "each extra mile costs 25p") or a date per period
 * ("the first Monday of each month") states a rate or a schedule, not a rule over a whole class.
 */
function distributes(claim: ClaimReading, index: number): boolean {
  const unit = claim.tokens.slice(index + 1, index + 3).find((t) => t.content);
  return claim.quantities.length > 0 || /^(?:day|week|month|year|term|season|quarter)$/.test(unit?.lemma ?? '');
}

const everyPerson = new Set(['anyone', 'anybody', 'everyone', 'everybody']);

/**
 * The people the passage names where the claim says "anyone" or "everyone": a plural noun neither the
 * claim nor the question says ("open to members" against "anyone can use it"). A passage that
 * quantifies as widely ("all passengers") names no limit.
 */
function namedGroup(claim: ClaimReading, universal: Token, passage: ReadPassage): Token | undefined {
  if (!everyPerson.has(universal.lower) || passage.tokens.some((t) => universals.has(t.lower))) return undefined;
  // "anyone treated with…", "everyone who…", "anyone over 18": the answer limits its own universal;
  // "anyone from 6am" does not.
  const at = claim.tokens.indexOf(universal);
  const [next, after] = [claim.tokens[at + 1], claim.tokens[at + 2]];
  const clockFollows = after !== undefined && claim.quantities.some((q) => q.kind === 'time' && q.start === after.start);
  if (
    next &&
    ((next.pos === 'ADP' && !clockFollows) ||
      next.pos === 'PRON' ||
      next.pos === 'SCONJ' ||
      (next.pos === 'VERB' && /(?:ed|ing)$/.test(next.lower)))
  )
    return undefined;
  const said = saidBy(claim);
  const p = passage.tokens;
  // Where a passage names who: its subject (before its first verb), or after "to", "for" or "by".
  const firstVerb = p.findIndex((t) => t.pos === 'VERB' || t.pos === 'AUX');
  const namesWho = (i: number) => i < firstVerb || ['to', 'for', 'by'].includes(p[i - 1]?.lower ?? '');
  // A plural: the lemmatiser leaves a capitalised one ("Members" opening a sentence) as it is.
  const plural = (t: Token) => /[^s]s$/.test(t.lower) && (t.lemma !== t.lower || t.pos === 'PROPN');
  return p.find((t, i) => t.content && (t.pos === 'NOUN' || t.pos === 'PROPN') && plural(t) && !said(t) && namesWho(i));
}

/**
 * The claim's universal, when the passage it is bound to limits what it quantifies. Only the best
 * passage: a universal is often true of one sentence and limited in the next.
 */
export function widenedByQuantifier(claim: ClaimReading): Signal | undefined {
  const top = claim.bound[0];
  const found = top && limitOf(claim, top);
  if (!found) return undefined;
  return signal('restriction_dropped', 'unsupported', `The sources limit this ("${found.limit}"); the answer says "${found.universal}".`, {
    passage: top,
  });
}

/** The claim's universal that claims more than the passage says, and what in the passage limits it. */
function limitOf(claim: ClaimReading, passage: ReadPassage): { limit: string; universal: string } | undefined {
  const { tokens, context } = claim;
  // A determiner ("both boats", "every member") quantifies over its noun: it only claims more
  // than the sources when that noun is what the sources speak of.
  const universal = tokens.find(
    (t, i) =>
      universals.has(t.lower) &&
      !context.questionBag.has(t.lower) &&
      !passage.bag.has(t.lower) &&
      claimsTheWhole(claim, i) &&
      (t.pos !== 'DET' || quantifiesSourceNoun(tokens, i, passage)),
  );
  if (!universal) return undefined;
  const restriction = passage.tokens.find(
    (t, i) =>
      restrictions.has(t.lower) && (!/^provid/.test(t.lower) || providedAt(passage.tokens, i)) && !tokens.some((c) => c.lower === t.lower),
  );
  // A limit with a figure the claim leaves out is a condition as much as an "only" or an "if".
  const condition = limitPhrase.exec(passage.text);
  const limitDropped =
    condition !== null && !passage.quantities.some((s) => s.start >= condition.index && claim.quantities.some((q) => sameQuantity(q, s)));
  const modifier = droppedModifier(claim, tokens.indexOf(universal), passage);
  const limit = limitDropped
    ? condition![0]
    : restriction && (/\b(only|unless|except|if)\b/i.test(passage.text) || passage.tokens.some((_, i) => providedAt(passage.tokens, i)))
      ? restriction.text
      : modifier
        ? `${modifier.text} ${passage.tokens[passage.tokens.indexOf(modifier) + 1]!.text}`
        : namedGroup(claim, universal, passage)?.text;
  return limit ? { limit: limit.trim(), universal: universal.text } : undefined;
}
