// Quantifiers: "always", "every", "both" where the sources restrict ("only", "unless", "if", or a
// limit with a figure such as "at least 48 hours").
import type { ReadPassage } from '../evidence/retrieval.js';
import { restrictions, universals } from '../language/lexicon.js';
import { sameQuantity } from '../language/quantities.js';
import { formsOf, type Token } from '../language/tokens.js';
import { type ClaimCheck, type Signal, signal } from './check.js';

const limitPhrase =
  /\b(?:at least|at most|up to|no more than|no later than|no less than|a minimum of|a maximum of|more than|less than|over|under|within)\s+(?=[$€£\d]|(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve)\b)/i;

function quantifiesSourceNoun(tokens: Token[], index: number, passage: ReadPassage): boolean {
  const noun = tokens.slice(index + 1, index + 4).find((t) => t.content);
  return noun !== undefined && formsOf(noun).some((f) => passage.bag.has(f));
}

export const quantifiersCheck: ClaimCheck = {
  name: 'quantifiers',
  kinds: { quantifier_overreach: 'unsupported' },
  run(claim) {
    const { tokens, bound, context } = claim;
    const signals: Signal[] = [];
    const top = bound[0];
    if (!top) return signals;
    // A determiner ("both boats", "every member") quantifies over its noun: it only claims more
    // than the sources when that noun is what the sources speak of.
    const universal = tokens.find(
      (t, i) =>
        universals.has(t.lower) &&
        !context.questionBag.has(t.lower) &&
        !top.bag.has(t.lower) &&
        (t.pos !== 'DET' || quantifiesSourceNoun(tokens, i, top)),
    );
    if (!universal) return signals;
    const restriction = top.tokens.find((t) => restrictions.has(t.lower) && !tokens.some((c) => c.lower === t.lower));
    // A limit with a figure the claim leaves out is a condition as much as an "only" or an "if".
    const condition = limitPhrase.exec(top.text);
    const limitDropped =
      condition !== null && !top.quantities.some((s) => s.start >= condition.index && claim.quantities.some((q) => sameQuantity(q, s)));
    if ((restriction && /\b(only|unless|except|provided|if)\b/i.test(top.text)) || limitDropped)
      signals.push(
        signal(
          'quantifier_overreach',
          'unsupported',
          `The sources limit this ("${restriction && !limitDropped ? restriction.text : condition![0]}"); the answer says "${universal.text}".`,
        ),
      );
    return signals;
  },
};
