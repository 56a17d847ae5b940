// A comparison the answer draws from figures it has just given ("A stop payment is $32 and a wire is
// $25, so the wire is the pricier"): the side it names must hold the larger, or the smaller, of them.
// Only the answer's own figures are read; whether the sources give those figures is the figures check's.
import { comparableKinds, type Quantity } from '../language/quantities.js';
import { contentStems, tokenize } from '../language/tokens.js';
import { type ClaimCheck, signal } from './check.js';

/** Comparatives and superlatives that pick the side with the smaller figure, and those that pick the larger. */
const smaller = /\b(?:cheaper|cheapest|less expensive|least expensive|lower|lowest|shorter|shortest|smaller|smallest|fewer|fewest)\b/i;
const larger =
  /\b(?:dearer|dearest|pricier|priciest|costlier|costliest|more expensive|most expensive|higher|highest|longer|longest|bigger|biggest|larger|largest|greater|greatest)\b/i;
/** Where one side's statement ends: a clause's punctuation (not a figure's "$1,250"), or a conjunction between two statements. */
const sideEnd = /[;:!?—–]|[.,](?!\d)|\b(?:and|but|while|whereas|so|then)\b/gi;
/** Answers compare a handful of sides; more clauses than this before the comparison are not read. */
const maxSides = 12;

interface Side {
  words: Set<string>;
  q: Quantity;
}

/** The answer's statements before `end` that give exactly one of its figures (`figures`), each with its words. */
function sidesBefore(answer: string, figures: Quantity[], end: number): Side[] {
  const text = answer.slice(0, end);
  const bounds = [0, ...[...text.matchAll(sideEnd)].map((m) => m.index + m[0].length), text.length];
  const sides: Side[] = [];
  for (let i = Math.max(0, bounds.length - 1 - maxSides); i + 1 < bounds.length; i++) {
    const [from, to] = [bounds[i]!, bounds[i + 1]!];
    const inside = figures.filter((q) => q.start >= from && q.end <= to);
    if (inside.length === 1) sides.push({ words: new Set(contentStems(tokenize(text.slice(from, to)))), q: inside[0]! });
  }
  return sides;
}

/** The sides of the comparison: figures of one kind and unit, at least two, their values not all equal. */
function comparable(sides: Side[], kindOf: Quantity): Side[] {
  const same = sides.filter((s) => comparableKinds(s.q, kindOf) && s.q.unit === kindOf.unit);
  return new Set(same.map((s) => s.q.value)).size >= 2 ? same : [];
}

export const comparisonCheck: ClaimCheck = {
  name: 'comparison',
  kinds: { comparison_reversed: 'contradicted' },
  run(claim) {
    const { text, offset, context } = claim;
    const low = smaller.exec(text);
    const high = larger.exec(text);
    const word = low ?? high;
    // A comparison with a figure of its own ("$5 cheaper", "longer than 30 days") is the figures check's.
    const ofItsOwn = context.answerQuantities.some((q) => q.start >= offset && q.end <= offset + text.length);
    if (!word || (low && high) || ofItsOwn) return [];
    const named = new Set(contentStems(tokenize(text.slice(0, word.index))));
    const sides = sidesBefore(context.answer, context.answerQuantities, offset);
    if (sides.length < 2) return [];
    // The side the claim names: the one sharing the most of its words, if only one does.
    const overlap = (s: Side) => [...s.words].filter((w) => named.has(w)).length;
    const best = Math.max(...sides.map(overlap));
    const chosen = sides.filter((s) => overlap(s) === best);
    if (best === 0 || chosen.length !== 1) return [];
    const pool = comparable(sides, chosen[0]!.q);
    if (pool.length < 2) return [];
    const values = pool.map((s) => s.q.value);
    const wanted = low ? Math.min(...values) : Math.max(...values);
    const own = chosen[0]!.q;
    if (own.value === wanted) return [];
    const other = pool.find((s) => s.q.value === wanted)!.q;
    return [
      signal(
        'comparison_reversed',
        'contradicted',
        `The answer gives ${own.text} here against ${other.text}, so this is not the ${low ? 'smaller' : 'larger'}.`,
      ),
    ];
  },
};
