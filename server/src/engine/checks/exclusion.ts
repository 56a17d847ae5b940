// A "yes" to a question whose situation the sources describe and deny: "I'm 15. Can I hire a
// kayak on my own?" against "under-16s cannot hire kayaks on their own".
import { retrieve } from '../evidence/retrieval.js';
import { negators } from '../language/lexicon.js';
import { formsOf, type Token, tokenize } from '../language/tokens.js';
import { type ClaimCheck, signal } from './check.js';

/** Share of the question's content words a passage must hold to describe its situation. */
const describes = 0.5;

/** How far after a negator the word it negates may sit ("no overnight stay", "without a valid ticket"). */
const reach = 3;

function negatorsAt(tokens: Token[]): number[] {
  return tokens.flatMap((t, i) => (negators.has(t.lower) ? [i] : []));
}

/** The stems of content words right after the negators at `at` (all of the text's when not given). */
function negatedWords(tokens: Token[], at?: number): string[] {
  return (at === undefined ? negatorsAt(tokens) : [at]).flatMap((i) =>
    tokens
      .slice(i + 1, i + 1 + reach)
      .filter((t) => t.content)
      .map((t) => t.stem),
  );
}

export const exclusionCheck: ClaimCheck = {
  name: 'exclusion',
  kinds: { situation_excluded: 'contradicted' },
  run(claim) {
    const { question, polarity, view } = claim.context;
    if (claim.index !== 0 || polarity !== 'yes') return [];
    const wanted = tokenize(question).filter((t) => t.content);
    if (wanted.length < 4) return [];
    // "…with no overnight stay" in a question that says "no overnight stay" describes the situation, denies nothing.
    const deniedInQuestion = negatedWords(tokenize(question));
    for (const passage of retrieve(view, [{ text: question, weight: 1 }], 3)) {
      const denials = negatorsAt(passage.tokens).filter((i) => !negatedWords(passage.tokens, i).some((w) => deniedInQuestion.includes(w)));
      if (denials.length === 0) continue;
      const shared = wanted.filter((t) => formsOf(t).some((f) => passage.bag.has(f))).length;
      if (shared / wanted.length >= describes)
        return [signal('situation_excluded', 'contradicted', 'The sources exclude the situation the question describes.', { passage })];
    }
    return [];
  },
};
