// The answer cut into claims with UTF-16 offsets: sentences, list items and clauses that carry
// separate facts. Courtesy and framing ("Sure!", "Good question —", "Let me know if...") are not
// claims; a leading "Yes"/"No" is kept as the answer's polarity.
import { courtesyPatterns } from '../language/lexicon.js';
import { extractQuantities } from '../language/quantities.js';

export interface ClaimSpan {
  text: string;
  start: number;
  end: number;
  /** The sentence the claim sits in, for checks that need its other clauses (comparisons). */
  sentenceStart: number;
  sentenceEnd: number;
}

export interface SplitAnswer {
  claims: ClaimSpan[];
  /** `yes` / `no` when the answer opens with one; used for answers that are nothing else. */
  polarity: 'yes' | 'no' | undefined;
  polaritySpan: [number, number] | undefined;
}

// A sentence ends at . ! ? (with a closing quote and a citation such as "[src_1]" kept with it)
// before a capital, digit or opening quote; at a line break; or at the end.
const sentenceEnd = /[.!?]+["”’)]?(?:\s*\[[^\]\n]{1,80}\])?(?=\s+["“‘(]?[\p{Lu}\d`$€£])|\n+|[.!?]+["”’)]?(?:\s*\[[^\]\n]{1,80}\])?\s*$/gu;
// A clause ends at ";", a dash, a comma before a contrast or consequence, ", and" before a subject of its own
// with its verb ("…, and Paris is on the list"; not a list's last item), or a colon before what it introduces.
const clauseBreak =
  /;\s+|\s+[—–]\s+|\s+-\s+|,\s+(?=(?:but|while|whereas|though|although|so|and then|plus)\b)|,\s+and\s+(?=(?:\p{Lu}\p{Ll}+|it|they|he|she|we|you|there)\s+(?:is|are|was|were|has|have|can|will|must|may|does|do)\b)|:\s+(?=[\p{L}`$€£\d])/gu;
const leadingFraming =
  /^(?:(?:yes|no|nope|yep|sure|(?:i'm |i am )?(?:so |really )?sorry to hear (?:that|this)|sorry|certainly|absolutely|unfortunately|sadly|fortunately|good news|ok|okay|not really|not yet|not anymore|unfortunately not|i'm afraid not|i'm afraid|i am afraid|it seems not|it depends|good question|great question)\b[\s,!.:;—–-]*)+|^(?:the\s+)?(?:short\s+)?answer\s+is\s+(?:that\s+)?|^(?:according to|based on|per|as stated in|as per)\s+(?:the\s+)?[^,]{0,60},\s*/iu;
// A source named as the teller ("The handbook says that ..."): one or two words and a reporting verb,
// in lower case so that a capitalised word of a name ("Harbour Notes") is not read as the verb.
const reportingFraming =
  /^(?:[Tt]he\s+|[Tt]his\s+|[Yy]our\s+)?(?:\p{L}+\s+){0,1}\p{L}+\s+(?:says|states|notes|explains|mentions|indicates|specifies)\s+(?:that\s+)?/u;
// Abbreviations that end in a period without ending the sentence ("the Priory of St. Wendel").
const abbreviation =
  /(?:\b(?:[A-Z]|St|Dr|Mr|Mrs|Ms|Prof|Jr|Sr|No|Vol|vs|etc|Inc|Ltd|Co|Corp|Gen|Col|Lt|Mt|Ft|approx|e\.g|i\.e|U\.S|U\.K))$/;
const polarityWord =
  /^\s*(yes|yep|yeah|sure|absolutely|certainly|no|nope|not really|not yet|not anymore|unfortunately not|sadly,? no|i'm afraid not|it seems not)\b/i;

/** A full stop that ends no sentence: an abbreviation's, or a numbered list item's marker ("2. 30 days' notice"). */
function endsNoSentence(answer: string, m: RegExpExecArray): boolean {
  if (m[0].startsWith('.') && abbreviation.test(answer.slice(Math.max(0, m.index - 6), m.index))) return true;
  if (m[0] !== '.') return false;
  // Read back a few characters only: the marker is a line's first word, and a long line must not be rescanned.
  const before = answer.slice(Math.max(0, m.index - 8), m.index);
  return (m.index <= 8 ? /(?:^|\n)[ \t]*\d{1,3}$/ : /\n[ \t]*\d{1,3}$/).test(before);
}

function sentencesOf(answer: string): [number, number][] {
  let start = 0;
  sentenceEnd.lastIndex = 0;
  const sentences: [number, number][] = [];
  for (let m = sentenceEnd.exec(answer); m; m = sentenceEnd.exec(answer)) {
    if (endsNoSentence(answer, m)) continue;
    sentences.push([start, m.index + m[0].length]);
    start = m.index + m[0].length;
    if (m[0].length === 0) sentenceEnd.lastIndex++;
  }
  if (start < answer.length) sentences.push([start, answer.length]);
  return sentences;
}

export function splitAnswer(answer: string): SplitAnswer {
  const claims: ClaimSpan[] = [];
  for (const [sStart, sEnd] of sentencesOf(answer)) {
    let cStart = sStart;
    clauseBreak.lastIndex = 0;
    const sentence = answer.slice(sStart, sEnd);
    for (let m = clauseBreak.exec(sentence); m; m = clauseBreak.exec(sentence)) {
      if (isLabel(answer.slice(cStart, sStart + m.index), m[0])) continue;
      addClaim(claims, answer, cStart, sStart + m.index, sStart, sEnd);
      cStart = sStart + m.index + m[0].length;
    }
    addClaim(claims, answer, cStart, sEnd, sStart, sEnd);
  }
  const p = polarityWord.exec(answer);
  const polarity = p ? (/^(yes|yep|yeah|sure|absolutely|certainly)$/i.test(p[1]!) ? 'yes' : 'no') : undefined;
  const offset = p ? p.index + p[0].indexOf(p[1]!) : 0;
  return { claims, polarity, polaritySpan: p ? [offset, offset + p[1]!.length] : undefined };
}

/**
 * A few words before a colon that introduce what follows ("One caveat:", "Bikes:") state nothing
 * of their own: the clause runs on past the colon, so the label stays with its fact.
 */
function isLabel(before: string, separator: string): boolean {
  if (!separator.startsWith(':')) return false;
  const words = before
    .trim()
    .replace(/^(?:[-*•·>]|\d{1,3}[.)])\s+/, '')
    .split(/\s+/);
  return words.length <= 3 && !/\d/.test(before);
}

/** Where a claim's text starts: after list markers and framing openers. */
function claimStart(answer: string, start: number, end: number): number {
  const text = answer.slice(start, end);
  // List markers only ("- ", "2. ", "- 1) "): a figure opening the item ("- 5 user seats") is the claim's.
  let from = start + (/^\s*(?:(?:[-*•·>]|\d{1,3}[.)])\s+)*/.exec(text)?.[0].length ?? 0);
  for (;;) {
    const rest = answer.slice(from, end);
    const framing = leadingFraming.exec(rest) ?? reportingFraming.exec(rest);
    if (!framing || framing[0].length === 0) return from;
    from += framing[0].length;
  }
}

/** Where a claim's text ends: before a trailing citation and punctuation. */
function claimEnd(answer: string, from: number, end: number): number {
  let to = end;
  // A trailing citation ("[src_1]") is a reference, not part of the claim.
  const citation = /\s*\[[^\]\n]{1,80}\]\s*[.!?]?\s*$/.exec(answer.slice(from, to));
  if (citation) to = from + citation.index;
  while (to > from && /[\s.,;:!?—–-]/.test(answer[to - 1]!)) to--;
  return to;
}

/** Whether what is left of a clause states a fact: not courtesy, a lone connective or a bare "No". */
function statesFact(text: string): boolean {
  if (!/[\p{L}\p{N}]/u.test(text)) return false;
  if (courtesyPatterns.some((pattern) => pattern.test(text))) return false;
  // A connective left alone between two commas ("..., though, so...") is no claim.
  if (/^(?:though|however|also|too|then|instead|anyway|still|thus|so|and|but)$/i.test(text)) return false;
  // A clause with no word of three letters or more (a lone "No", "OK") carries no fact, unless
  // it is an acronym ("T.B.A.", "B&B").
  return /[\p{L}\p{N}]{3,}/u.test(text) || /\d/.test(text) || /\p{Lu}.*\p{Lu}/u.test(text);
}

function addClaim(claims: ClaimSpan[], answer: string, start: number, end: number, sentenceStart: number, sentenceEnd: number): void {
  // Strip list markers, framing openers and trailing punctuation; what is left is the claim.
  const from = claimStart(answer, start, end);
  const to = claimEnd(answer, from, end);
  const text = answer.slice(from, to);
  if (statesFact(text) && !announcesList(text, answer, to)) claims.push({ text, start: from, end: to, sentenceStart, sentenceEnd });
}

const listItem = /^[ \t]*(?:[-*•·]|\d{1,3}[.)])\s+\S/;

/**
 * A clause that ends in a colon before a list ("There are a few situations where extra charges apply:",
 * "Here's what changes over Christmas:") announces the items; they state the facts. A count it gives
 * ("four main options") is the answer's own, and it announces only when the list has that many items.
 */
function announcesList(text: string, answer: string, to: number): boolean {
  const after = /^\s*:[ \t]*\n/.exec(answer.slice(to, to + 8));
  if (!after) return false;
  const lines = answer.slice(to + after[0].length, to + after[0].length + 4000).split('\n');
  const items = lines.findIndex((line) => !listItem.test(line));
  const count = items === -1 ? lines.length : items;
  if (count === 0) return false;
  // A figure other than that count ("For €19 a day you get:") is a fact of its own.
  return extractQuantities(text).every((q) => q.kind === 'count' && q.value === count);
}
