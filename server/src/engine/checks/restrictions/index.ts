// Restrictions the answer drops: a universal where the sources limit ("every day" against "only on
// weekdays"), or a clause stated without the condition the sources grant it under. One kind, because
// both say the same thing of the claim: the sources state it more narrowly, in the sentence a fix can
// put in its place.
import type { ClaimCheck } from '../check.js';
import { droppedCondition } from './conditions.js';
import { widenedByQuantifier } from './quantified.js';

/** Longer than this, a source sentence is no answer a reader wants in place of a claim. */
const restatable = 240;

/** A passage as a sentence to stand in an answer: without its clause number or list mark, or undefined if it is no single sentence. */
export function restatementOf(passage: string): string | undefined {
  const text = passage
    .trim()
    .replace(/^(?:\d+(?:\.\d+)+\.?\s+|\(?[\dA-Za-z]{1,3}[.)]\s+|[-*•·]\s+)/, '')
    .replace(/[.;:]$/, '');
  if (text.length > restatable || /[|\t]|[.!?]\s+\p{Lu}/u.test(text) || !/^[\p{Lu}\d"'(]/u.test(text)) return undefined;
  return text;
}

export const restrictionsCheck: ClaimCheck = {
  name: 'restrictions',
  kinds: { restriction_dropped: 'unsupported' },
  run(claim) {
    const found = widenedByQuantifier(claim) ?? droppedCondition(claim);
    if (!found) return [];
    const restatement = found.passage && restatementOf(found.passage.text);
    return [restatement ? { ...found, restatement } : found];
  },
};
