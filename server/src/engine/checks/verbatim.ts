// A bare answer (a name, a figure, a date) that the sources contain word for word: located and
// supported by the question that asked for it.
import { type ClaimCheck, signal } from './check.js';

export const verbatimCheck: ClaimCheck = {
  name: 'verbatim',
  kinds: { verbatim_answer: 'supported' },
  run(claim) {
    if (!claim.bare || claim.text.length < 3 || !claim.context.view.mentions(claim.text)) return [];
    const passage = claim.candidates.find((c) => c.text.toLowerCase().includes(claim.text.toLowerCase()));
    return [signal('verbatim_answer', 'supported', 'The sources give this answer word for word.', passage ? { passage } : {})];
  },
};
