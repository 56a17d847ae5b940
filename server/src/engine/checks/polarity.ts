// Negation: a predicate negated on one side and asserted on the other, or said with its antonym
// ("off" / "on by default"), in a passage that speaks of the claim's own subject.

import type { ClaimReading } from '../claims/reading.js';
import { pronounAntecedent } from '../evidence/coreference.js';
import type { ReadPassage } from '../evidence/retrieval.js';
import { antonymClash, deniedButStated, polarityClash, sharedDenials } from '../language/negation.js';
import { formsOf, type Token } from '../language/tokens.js';
import { type ClaimCheck, signal } from './check.js';

/** A claim that says something stops, and a passage that says how things are until then. */
const noLonger = /\b(?:any ?more|no longer)\b/i;
const hitherto = /\b(?:currently|at present|at the moment|until now|so far|used to)\b/i;

/**
 * A passage that is a question (an FAQ's heading) or a heading asserts nothing; "won't have to change any more" against
 * "currently have to change" is a change over time, not a clash.
 */
function assertsNothingAgainst(claim: string, passage: ReadPassage): boolean {
  // A heading ("NEW PHONE SYSTEM") has no verb, and so no predicate to deny or assert.
  const verbless = !passage.tokens.some((t) => t.pos === 'VERB' || t.pos === 'AUX');
  return verbless || /\?\s*$/.test(passage.text) || (noLonger.test(claim) && hitherto.test(passage.text));
}

/** A claim must be well covered before its polarity is compared: otherwise the passage is about something else. */
const coveredEnough = 0.6;

/** How many of the claim's content words a passage has in some form. */
function sharedWith(tokens: Token[], passage: ReadPassage): number {
  return tokens.filter((t) => t.content && formsOf(t).some((f) => passage.bag.has(f))).length;
}

/**
 * Another passage that states the clashing predicate with the claim's polarity and shares more of the claim's words:
 * the clash is with a statement about another case ("Crag End provides bedding" beside "Fellside Farm doesn't").
 */
function saidAlikeCloser(claim: ClaimReading, clash: string[], against: ReadPassage): boolean {
  const { tokens } = claim;
  const closer = sharedWith(tokens, against);
  return claim.candidates.some(
    (passage) =>
      passage !== against &&
      clash.every((stem) => passage.bag.has(stem)) &&
      sharedWith(tokens, passage) > closer &&
      polarityClash(tokens, passage.tokens).length === 0 &&
      deniedButStated(tokens, passage.tokens).length === 0 &&
      !antonymClash(tokens, passage.tokens),
  );
}

/**
 * Whether a passage says the opposite of the claim: a clashing word, and besides it `needed` of the claim's words (a
 * claim opening with "it" shares the subject of the claim before it), with no passage closer to the claim agreeing.
 */
function clashesWith(claim: ClaimReading, passage: ReadPassage, needed: number, antecedent: Token[]): boolean {
  const { tokens } = claim;
  if (assertsNothingAgainst(claim.text, passage)) return false;
  const clash = [...polarityClash(tokens, passage.tokens), ...deniedButStated(tokens, passage.tokens)];
  if (clash.length === 0 && !antonymClash(tokens, passage.tokens)) return false;
  const shared = [...tokens, ...antecedent].filter(
    (t) => t.content && !clash.includes(t.stem) && formsOf(t).some((f) => passage.bag.has(f)),
  ).length;
  return shared >= needed && !(clash.length > 0 && saidAlikeCloser(claim, clash, passage));
}

export const polarityCheck: ClaimCheck = {
  name: 'polarity',
  kinds: { negation_clash: 'contradicted' },
  run(claim) {
    const { tokens, bound } = claim;
    if (claim.wording.coverage < coveredEnough || bound.length === 0) return [];
    const top = bound[0]!;
    const antecedent = pronounAntecedent(claim.text, claim.previous);
    // A bound passage that denies what the claim denies says it as the claim does, and one that asserts
    // the word is taken to speak of another case ("no booking fee for small tables" beside "a booking fee
    // for groups"). The price, a denial moved to the other case goes unflagged: precision first.
    if (bound.some((passage) => sharedDenials(tokens, passage.tokens).length > 0)) return [];
    const passage = bound.find((p) => clashesWith(claim, p, p === top ? 1 : 2, antecedent));
    return passage ? [signal('negation_clash', 'contradicted', 'The sources say the opposite.', { passage })] : [];
  },
};
