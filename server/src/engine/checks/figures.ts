// Figures of a claim against the sources: each must sit beside the claim's words (subject binding),
// or follow from the answer's own figures. Another value sitting clearly closer to the claim's words
// contradicts it; a value whose neighbours are another subject's names, or another kind of the
// claim's thing ("the morning lift ticket" for "the night lift ticket"), leaves it unsupported.

import { bindQuantity, foreignOwner, labelPairs, stemsOf } from '../evidence/binding.js';
import { pronounSubject } from '../evidence/coreference.js';
import { kindsOf, otherKind } from '../evidence/kinds.js';
import type { ReadPassage } from '../evidence/retrieval.js';
import { derivable, derivableDate } from '../language/arithmetic.js';
import { isName } from '../language/cues.js';
import { tokenize } from '../language/tokens.js';
import { type ClaimCheck, type Signal, signal } from './check.js';

/** How much better another value must be placed than the claim's own for the claim to be displaced. */
const displacedMargin = 4;
/** A figure the claim gives as a limit ("up to 50%"), which a cap in the sources may support. */
const limitBefore = /\b(?:up to|at most|no more than|a maximum of|maximum|not exceed|capped at|limited to)\s+$/i;

export const figuresCheck: ClaimCheck = {
  name: 'figures',
  kinds: {
    figure_contradicted: 'contradicted',
    figure_other_subject: 'unsupported',
    figure_other_kind: 'unsupported',
    figure_not_stated: 'unsupported',
    figures_bound: 'confidence',
    source_conflict: 'note',
  },
  run(claim) {
    const { context, tokens, candidates } = claim;
    const signals: Signal[] = [];
    const own = stemsOf(tokens);
    const claimLabels = labelPairs(tokens);
    const nameStems = new Set(tokens.filter((t, i) => isName(t, i, tokens)).map((t) => t.stem));
    const subjectStems = new Set([...nameStems, ...pronounSubject(claim.text, claim.previous, context.question).map((t) => t.stem)]);
    const around = new Set([...context.questionStems, ...(claim.previous ? stemsOf(tokenize(claim.previous)) : [])]);
    const conflicting = new Set<number>();
    const claimKinds = kindsOf(claim.text, claim.previous);
    const passageKinds = (p: ReadPassage) => kindsOf(p.text, context.view.index.passages[p.id - 1]?.text);
    for (const q of claim.quantities) {
      // The answer's other figures are not rivals: "half an hour of rowing, then five minutes' rest" states both.
      const others = context.answerQuantities.filter((p) => p.start !== q.start + claim.offset);
      const limit = limitBefore.test(claim.text.slice(0, q.start));
      const { agreeing, rival } = bindQuantity(q, candidates, {
        own,
        around,
        names: nameStems,
        stated: others,
        labels: claimLabels,
        limit,
      });
      // Displaced: another value sits beside clearly more of the claim's words (two more of its own
      // words, or one more name) than any place where the sources give the claim's value.
      const displaced = rival !== undefined && rival.score >= displacedMargin && rival.score >= (agreeing?.score ?? 0) + displacedMargin;
      // A claim opening with "it" speaks of the previous claim's (or the question's) subject: that name is its own.
      const owner = agreeing && !displaced ? foreignOwner(agreeing, subjectStems, own) : undefined;
      if (owner) {
        signals.push(
          signal('figure_other_subject', 'unsupported', `In the sources ${q.text} belongs to ${owner}.`, { passage: agreeing!.passage }),
        );
        continue;
      }
      // "That ticket costs $30" where the $30 is the morning lift ticket's, not the claim's ticket's.
      const kind = agreeing && !displaced ? otherKind(claimKinds, passageKinds(agreeing.passage), context.view) : undefined;
      if (kind) {
        signals.push(
          signal('figure_other_kind', 'unsupported', `In the sources ${q.text} is about the ${kind.instead}, not the ${kind.said}.`, {
            passage: agreeing!.passage,
          }),
        );
        continue;
      }
      if (agreeing && !displaced) {
        // Another source's passage that gives another value in the same place: the sources disagree.
        if (rival && rival.passage.source !== agreeing.passage.source && rival.score >= agreeing.score && rival.score >= 2)
          conflicting.add(agreeing.passage.source).add(rival.passage.source);
        continue;
      }
      const pool = [...others, ...context.questionQuantities];
      if (derivable(q, pool) || derivableDate(q, pool)) continue;
      // Found only outside the best passages (a large source): stated, with nothing closer against it.
      // (Each word looked up in the index first: a full-text scan costs a millisecond per megabyte.)
      const indexed = [...q.text.matchAll(/[\p{L}\p{N}]+/gu)].every((m) => context.view.contains(m[0]));
      if (!agreeing && !displaced && indexed && context.view.mentions(q.text)) continue;
      if (rival && (displaced || rival.score >= 2)) {
        const reason = agreeing
          ? `In the sources ${q.text} belongs to another subject; here they give ${rival.q.text}.`
          : `The sources give ${rival.q.text} where the answer says ${q.text}.`;
        signals.push(
          signal('figure_contradicted', 'contradicted', reason, {
            passage: rival.passage,
            replacement: { start: q.start, end: q.end, text: rival.q.text },
          }),
        );
      } else {
        signals.push(signal('figure_not_stated', 'unsupported', `The sources do not state ${q.text}.`));
      }
    }
    if (claim.quantities.length > 0 && signals.length === 0)
      signals.push(signal('figures_bound', 'confidence', 'Its figures stand with its subject in the sources.'));
    if (conflicting.size > 1)
      signals.push(signal('source_conflict', 'note', 'The sources give different values.', { conflictingSources: [...conflicting] }));
    return signals;
  },
};
