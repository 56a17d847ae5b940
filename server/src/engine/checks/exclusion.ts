// A "yes" to a question whose situation the sources describe and deny: "I'm 15. Can I hire a
// kayak on my own?" against "under-16s cannot hire kayaks on their own".
import { retrieve } from '../evidence/retrieval.js';
import { negators } from '../language/lexicon.js';
import { formsOf, tokenize } from '../language/tokens.js';
import { type ClaimCheck, signal } from './check.js';

/** Share of the question's content words a passage must hold to describe its situation. */
const describes = 0.5;

export const exclusionCheck: ClaimCheck = {
  name: 'exclusion',
  kinds: { situation_excluded: 'contradicted' },
  run(claim) {
    const { question, polarity, view } = claim.context;
    if (claim.index !== 0 || polarity !== 'yes') return [];
    const wanted = tokenize(question).filter((t) => t.content);
    if (wanted.length < 4) return [];
    for (const passage of retrieve(view, [{ text: question, weight: 1 }], 3)) {
      if (!passage.tokens.some((t) => negators.has(t.lower))) continue;
      const shared = wanted.filter((t) => formsOf(t).some((f) => passage.bag.has(f))).length;
      if (shared / wanted.length >= describes)
        return [signal('situation_excluded', 'contradicted', 'The sources exclude the situation the question describes.', { passage })];
    }
    return [];
  },
};
