// Subject binding for figures: a figure in the answer is checked against the words the sources put
// right beside each value. "Fairhaven charges $32 for a cashier's check" is supported only if the
// $32 in the sources sits next to "cashier's check" more than some other value does; when another
// value sits closer to the claim's words, the answer gave one thing's figure for another.
import type { ReadPassage } from './evidence.js';
import { comparableKinds, type Quantity, sameQuantity } from './quantities.js';
import type { Token } from './tokens.js';

/** Words either side of a value that describe what it is the value of. */
const before = 8;
const after = 6;
// Sentence and list-item ends close a value's context; parentheses do not ("(extension 4400) within 2 hours").
const stop = /^[.;!?]$/;

export interface Occurrence {
  q: Quantity;
  passage: ReadPassage;
  /** How many of the claim's words sit beside this value (the claim's own count double). */
  score: number;
}

/** The stems of content words near a value, within its sentence part (not across ";" or "("). */
function contextOf(passage: ReadPassage, q: Quantity): Set<string> {
  const tokens = passage.tokens;
  const out = new Set<string>();
  let first = tokens.findIndex((t) => t.end > q.start);
  if (first < 0) first = tokens.length;
  let last = first;
  while (last < tokens.length && tokens[last]!.start < q.end) last++;
  for (let i = first - 1, n = 0; i >= 0 && n < before; i--) {
    const t = tokens[i]!;
    if (stop.test(t.text)) break;
    if (t.content || isLabel(t)) {
      out.add(t.stem);
      n++;
    }
  }
  for (let i = last, n = 0; i < tokens.length && n < after; i++) {
    const t = tokens[i]!;
    if (stop.test(t.text)) break;
    if (t.content || isLabel(t)) {
      out.add(t.stem);
      n++;
    }
  }
  return out;
}

function overlap(context: Set<string>, own: Set<string>, around: Set<string>, names: Set<string>): number {
  let score = 0;
  for (const stem of context) {
    // A name tells subjects apart best ("the Basic plan's 5 seats", "the Team plan's 50").
    if (names.has(stem)) score += 4;
    else if (own.has(stem)) score += 2;
    else if (around.has(stem)) score += 1;
  }
  return score;
}

/** A bare number beside a value is part of its label ("PASI 75", "Python 3.9", "route 12"). */
function isLabel(t: Token): boolean {
  return /^\d[\d.]*$/.test(t.text);
}

/** Words followed by a number in a text ("PASI 75", "week 16"), as "word number" pairs. */
export function labelPairs(tokens: Token[]): Map<string, string> {
  const pairs = new Map<string, string>();
  tokens.forEach((t, i) => {
    const next = tokens[i + 1];
    if (t.content && next && isLabel(next)) pairs.set(t.stem, next.text);
  });
  return pairs;
}

/** Whether a value's passage labels it otherwise than the claim does ("PASI 90" for a claim on "PASI 75"). */
function mislabelled(passage: ReadPassage, q: Quantity, claimLabels: Map<string, string>): boolean {
  if (claimLabels.size === 0) return false;
  const tokens = passage.tokens;
  const at = tokens.findIndex((t) => t.start >= q.start);
  const from = Math.max(0, at - 10);
  for (let i = from; i < Math.min(tokens.length - 1, at + 6); i++) {
    const t = tokens[i]!;
    const next = tokens[i + 1]!;
    if (next.start >= q.start && next.end <= q.end) continue;
    const mine = claimLabels.get(t.stem);
    if (mine !== undefined && isLabel(next) && next.text !== mine) return true;
  }
  return false;
}

/**
 * The names beside a value when none of them is one of the claim's ("386 miles" beside "the
 * Republican River" for a claim about "Wild Horse Creek"): the value is another subject's.
 */
export function foreignOwner(occurrence: Occurrence, names: Set<string>, own: Set<string>): string | undefined {
  if (names.size === 0) return undefined;
  const { passage, q } = occurrence;
  const inside = passage.quantities.includes(q);
  if (!inside) return undefined;
  // The same window as the value's context: content words within its sentence part, either side.
  const context = contextOf(passage, q);
  const found = passage.tokens.filter(
    (t, i) =>
      i > 0 && context.has(t.stem) && /^\p{Lu}/u.test(t.text) && /\p{L}{2,}/u.test(t.text) && (t.pos === 'PROPN' || t.pos === 'NOUN'),
  );
  // A capitalised label the claim words too ("Cashier's check" in a fee table) is no other owner.
  if (found.length === 0 || found.some((t) => names.has(t.stem) || own.has(t.stem))) return undefined;
  return found.map((t) => t.text).join(' ');
}

export interface Binding {
  agreeing: Occurrence | undefined;
  rival: Occurrence | undefined;
}

/**
 * The best-placed occurrence of the same value and of another value of the same kind among the
 * passages. `own` are the claim's content stems, `around` those of the question and previous claim;
 * `names` the stems of its names; values the answer itself states (`stated`) are never rivals.
 */
export function bindQuantity(
  q: Quantity,
  passages: ReadPassage[],
  own: Set<string>,
  around: Set<string>,
  names: Set<string>,
  stated: Quantity[] = [],
  claimLabels: Map<string, string> = new Map(),
): Binding {
  let agreeing: Occurrence | undefined;
  let rival: Occurrence | undefined;
  for (const passage of passages) {
    for (const s of passage.quantities) {
      const same = sameQuantity(q, s);
      if (!same && (!comparableKinds(q, s) || stated.some((o) => sameQuantity(o, s)))) continue;
      const score = overlap(contextOf(passage, s), own, around, names) - (mislabelled(passage, s, claimLabels) ? 6 : 0);
      if (same && (!agreeing || score > agreeing.score)) agreeing = { q: s, passage, score };
      if (!same && (!rival || score > rival.score)) rival = { q: s, passage, score };
    }
    // A heading's figure labels every line under it: its context is the whole line.
    for (const s of passage.headingQuantities) {
      const same = sameQuantity(q, s);
      if (!same && (!comparableKinds(q, s) || stated.some((o) => sameQuantity(o, s)))) continue;
      const score = overlap(stemsOf(passage.tokens), own, around, names);
      if (same && (!agreeing || score > agreeing.score)) agreeing = { q: s, passage, score };
      if (!same && (!rival || score > rival.score)) rival = { q: s, passage, score };
    }
  }
  return { agreeing, rival };
}

/** Content stems of tokens, for `bindQuantity`. */
export function stemsOf(tokens: Token[]): Set<string> {
  return new Set(tokens.filter((t) => t.content || isLabel(t)).map((t) => t.stem));
}
