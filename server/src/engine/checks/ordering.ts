// Comparisons checked against values: "A stop payment is $32 and a wire is $25, so the wire is the
// pricier of the two" compares the values the answer itself gives to each subject; "Diarrhea was the
// most frequent side effect (9%)" is checked against the other values of its kind in the sentence
// the sources give that value in.
import type { ReadPassage } from '../evidence/retrieval.js';
import { greaterWords, lesserWords } from '../language/lexicon.js';
import { comparableKinds, type Quantity, sameQuantity } from '../language/quantities.js';
import { tokenize } from '../language/tokens.js';

export interface Direction {
  greater: boolean;
  word: string;
  /** Content words before the comparative: what is compared. */
  subject: Set<string>;
  superlative: boolean;
  /** Where the comparing frame starts in the clause: values after it ("of the two") are not compared. */
  at: number;
}

// A comparative in a comparing frame ("is the pricier", "has the stronger", "costs more than").
const frame =
  /\b(?:is|are|was|were|has|have|had|be)\s+(?:the\s+|a\s+)?(?:\w+\s+)?(\w+er|more|less|fewer|most|least|\w+est)\b|\b(\w+er|more|less|fewer)\s+than\b/i;

/** The comparison a clause makes, if it makes one in a comparing frame. */
export function directionOf(text: string): Direction | undefined {
  const m = frame.exec(text);
  const word = (m?.[1] ?? m?.[2])?.toLowerCase();
  if (!m || !word) return undefined;
  const greater =
    greaterWords.has(word) || /^(?:pricier|costlier|dearer|stronger|higher|bigger|larger|greater|longer|more|most)$/.test(word);
  const lesser = lesserWords.has(word);
  if (greater === lesser) return undefined;
  const subject = new Set(
    tokenize(text.slice(0, m.index))
      .filter((t) => t.content)
      .map((t) => t.stem),
  );
  return { greater, word, subject, superlative: /^(?:most|least)$|est$/.test(word), at: m.index };
}

/** Content stems that label each of the answer's values: the words since the previous value, and a following "for X". */
function labels(answer: string, quantities: Quantity[]): Set<string>[] {
  return quantities.map((q, i) => {
    const from = i > 0 ? quantities[i - 1]!.end : Math.max(0, answer.lastIndexOf('.', q.start) + 1);
    const after = /^\s*(?:\w+\s+){0,2}?(?:for|of|on|with)\s+((?:[\p{L}-]+\s*){1,4})/u.exec(answer.slice(q.end, q.end + 60))?.[1] ?? '';
    return new Set(
      tokenize(`${answer.slice(from, q.start)} ${after}`)
        .filter((t) => t.content)
        .map((t) => t.stem),
    );
  });
}

/**
 * The answer's own values for a comparison: the value labelled with the compared subject against the
 * values of the same kind labelled otherwise. Returns a reason when the order is wrong.
 */
export function wrongOrder(direction: Direction, answer: string, values: Quantity[]): string | undefined {
  if (values.length < 2 || direction.subject.size === 0) return undefined;
  const tags = labels(answer, values);
  const hits = tags.map((tag) => [...tag].filter((s) => direction.subject.has(s)).length);
  const best = Math.max(...hits);
  if (best === 0 || hits.filter((h) => h === best).length > 1) return undefined;
  const mine = values[hits.indexOf(best)]!;
  const others = values.filter((q, i) => hits[i] === 0 && q !== mine && comparableKinds(mine, q) && q.kind !== 'date');
  if (others.length === 0) return undefined;
  const wrong = others.find((o) => (direction.greater ? o.value > mine.value : o.value < mine.value));
  return wrong
    ? `By the answer's own figures (${mine.text} against ${wrong.text}), "${direction.word}" is the wrong way round.`
    : undefined;
}

/** A superlative claim's value against the other values of its kind in the sentence that gives it. */
export function notTheMost(
  direction: Direction,
  claimValues: Quantity[],
  passages: ReadPassage[],
): { passage: ReadPassage; reason: string } | undefined {
  if (!direction.superlative) return undefined;
  const mine = claimValues[0];
  if (!mine) return undefined;
  for (const passage of passages) {
    if (!passage.quantities.some((s) => sameQuantity(mine, s))) continue;
    const rival = passage.quantities.find(
      (s) => comparableKinds(mine, s) && !sameQuantity(mine, s) && (direction.greater ? s.value > mine.value : s.value < mine.value),
    );
    if (rival) return { passage, reason: `The sources give ${rival.text} for another item, beyond ${mine.text}.` };
    return undefined;
  }
  return undefined;
}

/**
 * "X is the largest N" where the sources, in every sentence that names X (the first name) and gives that superlative,
 * rank it ("one of the largest", "the 2nd largest", "the second-largest"): the claim drops the rank.
 */
export function rankedSuperlative(text: string, names: string[], passages: ReadPassage[]): ReadPassage | undefined {
  const m = /\b(?<!\bof\s)the\s+((?:most|least)\s+\w+|\w+est)\b/i.exec(text);
  if (!m || names.length === 0) return undefined;
  const word = m[1]!.toLowerCase();
  const escaped = word.replace(/\s+/g, '\\s+');
  const ranked = new RegExp(`\\b(?:one\\s+of\\s+the|among\\s+the|\\d+(?:st|nd|rd|th)|second|third|fourth|fifth)[\\s-]+${escaped}\\b`, 'gi');
  let found: ReadPassage | undefined;
  for (const passage of passages) {
    // The subject: the claim's first name.
    if (!passage.text.includes(names[0]!)) continue;
    const all = passage.text.match(new RegExp(`\\b${escaped}\\b`, 'gi'))?.length ?? 0;
    if (all === 0) continue;
    const rankedCount = passage.text.match(ranked)?.length ?? 0;
    if (rankedCount < all) return undefined;
    found ??= passage;
  }
  return found;
}
