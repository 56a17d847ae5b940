// Wording: how much of the claim's own content the sources hold. Ordinary words may paraphrase
// freely; these signals say that the claim's specific content is absent, not that its common words
// differ.

import { wordWeight } from '../claims/reading.js';
import { sharesRoot } from '../language/cues.js';
import { negators } from '../language/lexicon.js';
import { formsOf } from '../language/tokens.js';
import { looseForms } from '../language/wording.js';
import { type ClaimCheck, type Signal, signal } from './check.js';

/** Share of the claim's new content words that the evidence must hold. */
const coverageFloor = 0.3;
/** The same for a claim anchored by figures or names of its own. */
const anchoredCoverageFloor = 0.15;
/** Weight of absent words (1 specific, 0.5 common noun, 0.25 other) from which low coverage counts. */
const commonAbsentLimit = 1;
/** An inference drawn from the answer's other claims restates them in its own words. */
const inferenceOpening = /^(?:so|therefore|thus|hence|which means|that means|meaning|in which case|in other words)\b/i;
/** A sum the answer works out in figures alone ("4 x £6 = £24"): the figures check reads it, there are no words to find. */
const workedSum = /^[\d\s.,£$€%x×*+\-−–=/()]*=[\d\s.,£$€%x×*+\-−–=/()]*$/i;

/** Whether a claim draws on the answer's other claims ("so …") or only works a sum: its words are not the sources' to hold. */
function inferred(text: string): boolean {
  return inferenceOpening.test(text) || workedSum.test(text);
}

/** What the sources lack, for the graded signal's reason: ': they never use "weekends" or "alone"'. */
function lacking(words: readonly string[]): string {
  const named = [...new Set(words)].slice(0, 4).map((word) => `"${word}"`);
  if (named.length === 0) return '';
  const list = named.length === 1 ? named[0] : `${named.slice(0, -1).join(', ')} or ${named.at(-1)}`;
  return `: they never use ${list}`;
}

export const wordingCheck: ClaimCheck = {
  name: 'wording',
  kinds: {
    wording_uncovered: 'unsupported',
    specific_word_added: 'unsupported',
    topic_unknown: 'unsupported',
    coverage_gap: 'unsupported',
    specific_words_absent: 'unsupported',
  },
  run(claim) {
    const { tokens, names, context, wording, nearWords } = claim;
    const signals: Signal[] = [];
    const inference = inferred(claim.text);
    const floor = claim.quantities.length > 0 || names.length > 0 ? anchoredCoverageFloor : coverageFloor;
    // A claim that restates the question adds its answer in its new words: those must be found.
    const limit = wording.restated >= 2 ? 0 : commonAbsentLimit;
    if (!inference && wording.absentWeight >= limit && wording.coverage < floor)
      signals.push(signal('wording_uncovered', 'unsupported', 'The sources do not say this.'));
    // A claim that restates the question at length and adds a specific word found nowhere answers
    // it with something the sources lack.
    if (!inference && wording.restated >= 3 && wording.absentSpecific > 0)
      signals.push(signal('specific_word_added', 'unsupported', 'The answer adds something the sources never mention.'));
    // A specific word the claim takes from the question but the sources never use: an assertion
    // about it is not theirs (a denial may be).
    const unknownTopic = tokens.filter(
      (t) =>
        t.content &&
        wordWeight(t) === 1 &&
        !names.includes(t) &&
        formsOf(t).some((f) => context.questionBag.has(f)) &&
        !looseForms(t).some((f) => context.view.contains(f)) &&
        !sharesRoot(t, nearWords) &&
        !context.view.mentions(t.text),
    );
    const counts = unknownTopic.some((t) => /^\p{Lu}/u.test(t.text)) || (unknownTopic.length > 0 && wording.coverage < 0.7);
    if (counts && context.polarity !== 'no' && !tokens.some((t) => negators.has(t.lower)))
      signals.push(
        signal('topic_unknown', 'unsupported', `The sources never mention ${unknownTopic.map((t) => `"${t.text}"`).join(', ')}.`),
      );
    // Specific words (outside everyday vocabulary) found nowhere in the sources, graded by their number.
    if (!inference && wording.absentSpecific > 0)
      signals.push({
        ...signal('specific_words_absent', 'unsupported', 'It uses specific words the sources never use.'),
        strength: wording.absentSpecific / (wording.absentSpecific + 1),
      });
    // How much is left uncovered, as a graded signal.
    if (!inference && wording.absentWeight > 0)
      signals.push({
        ...signal('coverage_gap', 'unsupported', `Part of this is not in the sources${lacking(wording.absentWords)}.`),
        strength: 1 - wording.coverage,
      });
    return signals;
  },
};
