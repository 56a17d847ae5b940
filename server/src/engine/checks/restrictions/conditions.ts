// A condition left out: a claim that states what a source sentence grants without the condition it is
// granted under ("credits are returned" where the sources say "if you cancel at least 24 hours
// before"). Exceptions ("unless", "except") are left to quantified.ts: an answer may leave an
// exception out without being wrong, unless it says "always" or "every".
import type { AnswerContext, ClaimReading } from '../../claims/reading.js';
import { providedOpensCondition } from '../../language/cues.js';
import { dayRanges } from '../../language/dates.js';
import { negators } from '../../language/lexicon.js';
import { comparableKinds, extractQuantities, type Quantity, sameQuantity } from '../../language/quantities.js';
import { formBag, type Token, tokenize } from '../../language/tokens.js';
import { looseForms } from '../../language/wording.js';
import { type Signal, signal } from '../check.js';

/** What opens a condition; the condition runs to the clause's end. */
const opener =
  /\b(?:(?:but )?only (?:if|when|where|while|once|for|on|in|at|by|to|from|after|before|during|within|with|without|outside|inside|between|until|under|over|through)|but only|provided(?: that)?|providing(?: that)?|as long as|so long as|on condition that|on the condition that|if)\b/gi;
/** A claim that states a condition or an exception. */
const conditional = /\b(?:if|unless|provided|providing|as long as|so long as|except|only|otherwise)\b/i;
/** Where a clause ends: a sentence's or clause's punctuation, a dash, or a comma before a conjunction. */
const clauseEnd = /[;:!?)(]|\.(?=\s|$)|,(?=\s*(?:and|but|or|while|whereas|so)\b)|\s[—–]\s/g;
/** Share of a host clause's content words and figures the claim must hold to state it. */
const states = 0.6;
/** Share of the claim's content words a passage must hold to state the claim itself. */
const stated = 0.8;
/** Share of a condition's content words the answer or question must hold to keep it. */
const keeps = 0.5;

interface Condition {
  /** The condition, its opener included. */
  text: string;
  /** The clause it conditions: before it, or (when it opens its sentence) after its comma. */
  host: string;
}

interface Clause {
  start: number;
  end: number;
  /** Whether a comma before a conjunction ends the clause before it (rather than a sentence's end). */
  joined: boolean;
}

function clausesOf(text: string): Clause[] {
  const out: Clause[] = [];
  let start = 0;
  let joined = false;
  for (const m of text.matchAll(clauseEnd)) {
    out.push({ start, end: m.index, joined });
    start = m.index + m[0].length;
    joined = m[0] === ',';
  }
  out.push({ start, end: text.length, joined });
  return out;
}

/** Longer than this, a passage is no sentence (a table, a run of text without stops): its conditions are not read. */
const sentenceLength = 1000;

/** Whether a "provided"/"providing" matched at `index` is the conjunction, by the words either side of it. */
function providedOpens(text: string, index: number, match: string): boolean {
  const before = /(\p{L}+)\s+$/u.exec(text.slice(Math.max(0, index - 40), index))?.[1];
  const after = /^\s+(\p{L}+)/u.exec(text.slice(index + match.length, index + match.length + 40))?.[1];
  // "provided that" matched whole: its clause follows.
  if (/that$/i.test(match)) return true;
  return providedOpensCondition(before?.toLowerCase(), after?.toLowerCase());
}

/** The conditions of one passage, each with the clause it applies to. */
export function conditionsOf(text: string): Condition[] {
  if (text.length > sentenceLength) return [];
  const clauses = clausesOf(text);
  const out: Condition[] = [];
  let at = 0;
  for (const m of text.matchAll(opener)) {
    if (/^provid/i.test(m[0]) && !providedOpens(text, m.index, m[0])) continue;
    // Openers come in order, so the clause that holds one is at or after the last one's.
    while (at < clauses.length && clauses[at]!.end <= m.index) at++;
    const found = clauses[at] && m.index >= clauses[at]!.start ? conditionAt(text, clauses, at, m.index) : undefined;
    if (found) out.push(found);
  }
  return out;
}

/** The condition an opener at `index` starts, in clause `at`, with the clause it conditions. */
function conditionAt(text: string, clauses: Clause[], at: number, index: number): Condition | undefined {
  const clause = clauses[at]!;
  const lead = text.slice(clause.start, index);
  if (/\p{L}/u.test(lead)) return { text: text.slice(index, clause.end), host: lead };
  if (clause.joined) return { text: text.slice(index, clause.end), host: text.slice(clauses[at - 1]!.start, clauses[at - 1]!.end) };
  // "If you cancel early, the fee is waived.": the condition ends at its comma and conditions what follows.
  const comma = text.slice(index, clause.end).search(/,(?!\d{3})/) + index;
  return comma < index ? undefined : { text: text.slice(index, comma), host: text.slice(comma + 1, clause.end) };
}

const contentOf = (text: string): Token[] => tokenize(text).filter((t) => t.content);
const holds = (bag: Set<string>) => (t: Token) => looseForms(t).some((f) => bag.has(f));
const holdsFigure = (said: Quantity[]) => (f: Quantity) => said.some((q) => sameQuantity(q, f));

/** Whether the claim states the clause: most of its content words and figures, negated as it is negated. */
function statesHost(claim: ClaimReading, claimBag: Set<string>, host: string): boolean {
  const negated = (tokens: Token[]) => tokens.some((t) => negators.has(t.lemma));
  if (negated(tokenize(host)) !== negated(claim.tokens)) return false;
  const words = contentOf(host);
  const figures = extractQuantities(host);
  // A clause that gives only other values of the claim's figure ("six weeks' rent if …" for "five weeks' rent") is another case's.
  const rivals = figures.filter((f) => claim.quantities.some((q) => comparableKinds(q, f)));
  if (rivals.length > 0 && !rivals.some(holdsFigure(claim.quantities))) return false;
  const parts = words.length + figures.length;
  const held = words.filter(holds(claimBag)).length + figures.filter(holdsFigure(claim.quantities)).length;
  return parts > 0 && held / parts >= states;
}

/**
 * Whether neither the answer nor the question keeps the condition: none of its figures, or too few of its own words.
 * A condition of alternatives ("if you lose an item or return it damaged") is kept by keeping one of them.
 */
function dropped(condition: Condition, said: Set<string>, saidFigures: Quantity[]): boolean {
  const host = contentOf(condition.host);
  const figures = extractQuantities(condition.text);
  if (figures.length > 0 && !figures.some(holdsFigure(saidFigures))) return true;
  return condition.text.split(/\s+or\s+/i).every((alternative) => {
    const words = contentOf(alternative).filter((t) => !host.some((h) => h.lemma === t.lemma));
    return words.length > 0 && words.filter(holds(said)).length / words.length < keeps;
  });
}

/** The answer's and the question's words, once per answer. */
const saidBags = new WeakMap<AnswerContext, Set<string>>();
function saidBag(context: AnswerContext): Set<string> {
  let bag = saidBags.get(context);
  if (!bag) {
    bag = new Set([
      ...formBag(tokenize(context.answer)),
      ...context.questionBag,
      ...dayRanges(`${context.question}\n${context.answer}`).flatMap((r) => r.words),
    ]);
    saidBags.set(context, bag);
  }
  return bag;
}

/** The first condition of the claim's passages that the claim's clause is granted under and the answer leaves out. */
export function droppedCondition(claim: ClaimReading): Signal | undefined {
  // A bare figure or name is located by the question, not by a clause of its own; a claim that
  // states a condition of its own is conditional already, and whether it is the sources' condition
  // is a question of its words and figures.
  if (claim.bare || conditional.test(claim.text)) return undefined;
  const said = saidBag(claim.context);
  const saidFigures = [...claim.context.answerQuantities, ...claim.context.questionQuantities];
  const words = claim.tokens.filter((t) => t.content);
  const claimBag = formBag(claim.tokens);
  for (const passage of claim.bound) {
    const condition = conditionsOf(passage.text).find((c) => statesHost(claim, claimBag, c.host) && dropped(c, said, saidFigures));
    if (condition)
      return signal(
        'restriction_dropped',
        'unsupported',
        `The sources state this only under a condition the answer leaves out: "${condition.text.trim()}".`,
        { passage },
      );
    // A passage that states the claim with no condition to keep states it as the answer does.
    if (words.length > 0 && words.filter(holds(passage.bag)).length / words.length >= stated) return undefined;
  }
  return undefined;
}
