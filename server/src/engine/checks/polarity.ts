// Negation: a predicate negated on one side and asserted on the other, or said with its antonym
// ("off" / "on by default"), in a passage that speaks of the claim's own subject.
import { pronounAntecedent } from '../evidence/coreference.js';
import { antonymClash, deniedButStated, polarityClash, sharedDenials } from '../language/negation.js';
import { formsOf } from '../language/tokens.js';
import { type ClaimCheck, signal } from './check.js';

/** A claim that says something stops, and a passage that says how things are until then. */
const noLonger = /\b(?:any ?more|no longer)\b/i;
const hitherto = /\b(?:currently|at present|at the moment|until now|so far|used to)\b/i;

/**
 * A passage that is a question (an FAQ's heading) asserts nothing; "won't have to change any more" against
 * "currently have to change" is a change over time, not a clash.
 */
function assertsNothingAgainst(claim: string, passage: string): boolean {
  return /\?\s*$/.test(passage) || (noLonger.test(claim) && hitherto.test(passage));
}

/** A claim must be well covered before its polarity is compared: otherwise the passage is about something else. */
const coveredEnough = 0.6;

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
    for (const passage of bound) {
      if (assertsNothingAgainst(claim.text, passage.text)) continue;
      const clash = [...polarityClash(tokens, passage.tokens), ...deniedButStated(tokens, passage.tokens)];
      if (clash.length === 0 && !antonymClash(tokens, passage.tokens)) continue;
      // Besides the clashing word, the passage must share the claim's subject (two words, one for the
      // best passage); a claim opening with "it" shares the subject of the claim before it.
      const shared = [...tokens, ...antecedent].filter(
        (t) => t.content && !clash.includes(t.stem) && formsOf(t).some((f) => passage.bag.has(f)),
      ).length;
      if (shared >= (passage === top ? 1 : 2))
        return [signal('negation_clash', 'contradicted', 'The sources say the opposite.', { passage })];
    }
    return [];
  },
};
