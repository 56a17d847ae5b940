// Subject binding for figures: a figure in the answer is checked against the words the sources put
// right beside each value. "Brookmere Museum charges $4 for an audio guide" is supported only if
// the $4 in the sources sits next to "audio guide" more than some other value does; when another
// value sits closer to the claim's words, the answer gave one thing's figure for another.

import { calendarWordsOrShort } from '../language/cues.js';
import { comparableKinds, type Quantity, sameQuantity } from '../language/quantities.js';
import type { Token } from '../language/tokens.js';
import type { LabelledCell, ReadPassage } from './retrieval.js';

/** Words either side of a value that describe what it is the value of. */
const before = 8;
const after = 6;
// Sentence and list-item ends close a value's context; parentheses do not ("(gate 12) within 30 minutes").
const stop = /^[.;!?]$/;

const conjunction = /^(?:and|but|while|whereas)$/;

export interface Occurrence {
  q: Quantity;
  passage: ReadPassage;
  /** How many of the claim's words sit beside this value (the claim's own count double). */
  score: number;
}

/** A word that describes what a value is of: a content word, or a number labelling it. */
function describes(t: Token): boolean {
  return t.content || isLabel(t);
}

/** The describing stems before the value's first token, back to the sentence part's start. */
function stemsBefore(tokens: Token[], first: number, previous: Quantity | undefined): string[] {
  const out: string[] = [];
  for (let i = first - 1; i >= 0 && out.length < before; i--) {
    const t = tokens[i]!;
    if (stop.test(t.text) || (out.length > 0 && previous && t.start >= previous.end && conjunction.test(t.lower))) break;
    if (describes(t)) out.push(t.stem);
  }
  return out;
}

/** The describing stems after the value, up to the sentence part's end or a clause with a value of its own. */
function stemsAfter(tokens: Token[], last: number, next: Quantity | undefined): string[] {
  const out: string[] = [];
  for (let i = last; i < tokens.length && out.length < after; i++) {
    const t = tokens[i]!;
    if (stop.test(t.text)) break;
    if (next && conjunction.test(t.lower) && tokens.some((w, k) => k > i && w.content && w.end <= next.start)) break;
    if (describes(t)) out.push(t.stem);
  }
  return out;
}

function cellOf(passage: ReadPassage, q: Quantity): LabelledCell | undefined {
  return passage.cells.find((c) => q.start >= c.start && q.end <= c.end);
}

/** A value in a table cell: the cell's own words, its column's header and its row's label. */
function cellContext(passage: ReadPassage, q: Quantity): Set<string> | undefined {
  const cell = cellOf(passage, q);
  if (!cell) return undefined;
  const own = passage.tokens.filter((t) => t.start >= cell.start && t.end <= cell.end && (t.end <= q.start || t.start >= q.end));
  return new Set([...own.filter(describes).map((t) => t.stem), ...cell.labels]);
}

/** The stems of content words near a value, within its sentence part (not across ";" or "("), or its table cell. */
function contextOf(passage: ReadPassage, q: Quantity): Set<string> {
  const inCell = cellContext(passage, q);
  if (inCell) return inCell;
  const tokens = passage.tokens;
  let first = tokens.findIndex((t) => t.end > q.start);
  if (first < 0) first = tokens.length;
  const last = endOf(tokens, q);
  // "Skate hire costs €7 and helmet hire costs €3": a clause joined by "and" or "but" that
  // names its own subject before its own value gives that value its words, not the value before it.
  // ("Skates cost €7 an hour and €19 a day" shares one subject: no words stand between.)
  const previous = passage.quantities.filter((s) => s.end <= q.start && comparableKinds(q, s)).pop();
  const next = passage.quantities.find((s) => s.start >= q.end && comparableKinds(q, s));
  let following = stemsAfter(tokens, last, next);
  // "supplied with 80% charge and returned with 70%": a value with no words of its own after it shares
  // the noun the value before it names (the second "charge" is left out, as English leaves it out).
  if (following.length === 0 && previous && !tokens.some((t) => t.start >= previous.end && t.end <= q.start && stop.test(t.text)))
    following = stemsAfter(tokens, endOf(tokens, previous), q);
  return new Set([...stemsBefore(tokens, first, previous), ...following]);
}

/** The index of the first token after a value. */
function endOf(tokens: Token[], q: Quantity): number {
  const last = tokens.findIndex((t) => t.start >= q.end);
  return last < 0 ? tokens.length : last;
}

function overlap(context: Set<string>, own: Set<string>, around: Set<string>, names: Set<string>): number {
  let score = 0;
  for (const stem of context) {
    // A name tells subjects apart best ("the Bronze tier's 5 visits", "the Gold tier's 50").
    if (names.has(stem)) score += 4;
    else if (own.has(stem)) score += 2;
    else if (around.has(stem)) score += 1;
  }
  return score;
}

/** A bare number beside a value is part of its label ("level 3", "grade 5", "aisle 12"). */
function isLabel(t: Token): boolean {
  return /^\d[\d.]*$/.test(t.text);
}

/** Words followed by a number in a text ("level 3", "grade 5"), as "word number" pairs. */
export function labelPairs(tokens: Token[]): Map<string, string> {
  const pairs = new Map<string, string>();
  tokens.forEach((t, i) => {
    const next = tokens[i + 1];
    if (t.content && next && isLabel(next)) pairs.set(t.stem, next.text);
  });
  return pairs;
}

/** Whether a value's passage labels it otherwise than the claim does ("grade 6" for a claim on "grade 5"). */
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
 * A capital that only opens its line, cell or sentence ("Solar feed-in credit | 5.0c", "Latest finish | 11:30pm"):
 * a common word, unless the next word is capitalised too ("Steady Fix").
 */
function positionalCapital(passage: ReadPassage, i: number): boolean {
  const t = passage.tokens[i]!;
  const opens = /(?:^|[|\n]|[.!?:]\s)\s*$/.test(passage.text.slice(Math.max(0, t.start - 4), t.start));
  return opens && !/^\p{Lu}/u.test(passage.tokens[i + 1]?.text ?? '');
}

/** A capitalised word in `passage` (all of it, or only words whose stems are in `within`) that may name a subject. */
function capitalsIn(passage: ReadPassage, within?: Set<string>): { t: Token; positional: boolean }[] {
  return passage.tokens.flatMap((t, i) =>
    i > 0 &&
    (within === undefined || within.has(t.stem)) &&
    /^\p{Lu}/u.test(t.text) &&
    /\p{L}{2,}/u.test(t.text) &&
    (t.pos === 'PROPN' || t.pos === 'NOUN') &&
    // Days and months name a time, not a subject a value belongs to ("Mon-Fri, 7:00-20:00").
    !calendarWordsOrShort.test(t.text)
      ? [{ t, positional: positionalCapital(passage, i) }]
      : [],
  );
}

/** The subject the capitals name when none of them is the claim's. */
function ownerAmong(
  capitals: { t: Token; positional: boolean }[],
  names: Set<string>,
  own: Set<string>,
  asked: Set<string>,
): string | undefined {
  // A capitalised label the claim words too ("Audio guide" in a price table) is no other owner.
  if (capitals.some(({ t }) => names.has(t.stem) || own.has(t.stem))) return undefined;
  // Nor is a common word capitalised only because it opens its cell or sentence.
  const found = capitals.filter((c) => !c.positional).map(({ t }) => t);
  // Words the question gives ("Steady Fix", "weekend plus") are the conversation's subject when they are all the
  // value has beside it.
  if (found.length === 0 || found.every((t) => asked.has(t.stem))) return undefined;
  return found.map((t) => t.text).join(' ');
}

/**
 * The names beside a value when none of them is one of the claim's ("42 km" beside "the
 * Harlow Ridge" for a claim about "the Sedge Valley trail"): the value is another subject's. `own` are the
 * claim's content stems, `asked` the question's (its names among them). A value on a line of a record of
 * fields (`record`: "Price: £333" under "Room 2: Garden Twin") has the names of every line of it beside it.
 */
export function foreignOwner(
  occurrence: Occurrence,
  names: Set<string>,
  own: Set<string>,
  asked: Set<string>,
  record: ReadPassage[] = [],
): string | undefined {
  if (names.size === 0) return undefined;
  const { passage, q } = occurrence;
  const inside = passage.quantities.includes(q);
  if (!inside) return undefined;
  // The same window as the value's context: content words within its sentence part, either side.
  const capitals = capitalsIn(passage, contextOf(passage, q));
  // A record that names the claim's subject on any line is the claim's.
  const others = record.some((line) => [...names].some((n) => line.bag.has(n))) ? [] : record;
  for (const line of others) if (line.id !== passage.id) capitals.push(...capitalsIn(line));
  return ownerAmong(capitals, names, own, asked);
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
/** What a claim says around one of its figures, for `bindQuantity`. */
export interface FigureContext {
  /** The claim's content stems. */
  own: Set<string>;
  /** Stems of the question and the previous claim, which may name the figure's subject. */
  around: Set<string>;
  /** Stems of the claim's names (and of the name a pronoun in it stands for). */
  names: Set<string>;
  /** Figures the answer itself states: never rivals. */
  stated: Quantity[];
  /** The claim's "word number" labels ("grade 5"). */
  labels: Map<string, string>;
  /** Whether the claim gives its figure as a limit ("up to 100%"). */
  limit: boolean;
}

const capPhrase = /\b(?:not exceed|no more than|no higher than|up to|at most|a maximum of|maximum of|capped at|limited to)\s+$/i;

/** Whether the sources give a value as a cap ("may not exceed 40 hours"), which is no amount by itself. */
function capped(passage: ReadPassage, s: Quantity): boolean {
  return capPhrase.test(passage.text.slice(Math.max(0, s.start - 30), s.start));
}

/** A value of the same kind as the claim's that the answer does not state itself: one the claim's may be confused with. */
function rivals(q: Quantity, s: Quantity, stated: Quantity[]): boolean {
  return comparableKinds(q, s) && !stated.some((o) => sameQuantity(o, s));
}

/** Keeps `found` the best-placed occurrence of each side, the earlier one on a tie. */
function consider(found: Binding, same: boolean, occurrence: Occurrence): void {
  if (same && (!found.agreeing || occurrence.score > found.agreeing.score)) found.agreeing = occurrence;
  if (!same && (!found.rival || occurrence.score > found.rival.score)) found.rival = occurrence;
}

/**
 * A table cell's row label and column header say whose value it is, as a name does: each of the claim's
 * words among them counts twice more ("taught" tells "Postgraduate taught | 3 weeks" from "Postgraduate
 * research | 12 weeks").
 */
function labelled(passage: ReadPassage, q: Quantity, claim: FigureContext): number {
  const cell = cellOf(passage, q);
  let score = 0;
  // A name already counts as one.
  for (const stem of cell?.labels ?? []) if (claim.own.has(stem) && !claim.names.has(stem)) score += 2;
  return score;
}

/** The values in a passage's own text, each placed by the words beside it. */
function bindInText(q: Quantity, passage: ReadPassage, claim: FigureContext, found: Binding): void {
  for (const s of passage.quantities) {
    const equal = sameQuantity(q, s);
    const same = equal && (claim.limit || !capped(passage, s));
    // The claim's own value, where the sources give it only as a cap, neither agrees nor rivals.
    if (!same && (!rivals(q, s, claim.stated) || equal)) continue;
    const score =
      overlap(contextOf(passage, s), claim.own, claim.around, claim.names) +
      labelled(passage, s, claim) -
      (mislabelled(passage, s, claim.labels) ? 6 : 0);
    consider(found, same, { q: s, passage, score });
  }
}

/**
 * A heading's figure labels every line under it: its context is the whole line. A line that gives a value of
 * the same kind itself says its own ("joined in 1947" under "Dalmere (1936–1952)"), so there the heading's is no rival.
 */
function bindInHeadings(q: Quantity, passage: ReadPassage, claim: FigureContext, found: Binding): void {
  const ownOfKind = passage.quantities.some((s) => comparableKinds(q, s));
  for (const s of passage.headingQuantities) {
    const same = sameQuantity(q, s);
    if (!same && (!rivals(q, s, claim.stated) || ownOfKind)) continue;
    consider(found, same, { q: s, passage, score: overlap(stemsOf(passage.tokens), claim.own, claim.around, claim.names) });
  }
}

/**
 * The best-placed occurrence of the same value and of another value of the same kind among the
 * passages. A cap in the sources does not agree with a claim that gives the same figure as an amount.
 */
export function bindQuantity(q: Quantity, passages: ReadPassage[], claim: FigureContext): Binding {
  const found: Binding = { agreeing: undefined, rival: undefined };
  for (const passage of passages) {
    bindInText(q, passage, claim, found);
    bindInHeadings(q, passage, claim, found);
  }
  return found;
}

/** Content stems of tokens, for `bindQuantity`. */
export function stemsOf(tokens: Token[]): Set<string> {
  return new Set(tokens.filter((t) => t.content || isLabel(t)).map((t) => t.stem));
}
