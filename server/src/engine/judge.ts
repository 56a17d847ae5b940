// The deterministic judge: strict on specifics (figures bound to their subject, names and the roles
// tied to them, negation and antonyms, quantifiers and limits, superlatives, praise), lenient on
// wording (lemmas, stems, synonyms, derivation, the question's own words, framing). One claim at a
// time, against the passages that speak about the claim's own subject.

import { judgeFigures } from './checks/figures.js';
import { unlinkedNames } from './checks/linked-names.js';
import { aliasMismatch, swappedWord } from './checks/naming.js';
import { directionOf, notTheMost, rankedSuperlative } from './checks/ordering.js';
import { wordAwayFromSubject } from './checks/predicate-binding.js';
import { relationMismatch } from './checks/relation.js';
import { type ReadPassage, retrieve, type SourceView } from './evidence/retrieval.js';
import { definitelyMentioned, pronounAntecedent } from './language/coreference.js';
import { addedPraise, brokenLimit, idiomSpans, isBare, isName, quantifiesSourceNoun, sharesRoot, variantOwner } from './language/cues.js';
import { negators, restrictions, universals } from './language/lexicon.js';
import { claimNames, nameRuns } from './language/names.js';
import { antonymClash, deniedButStated, polarityClash } from './language/negation.js';
import { extractQuantities, type Quantity, sameQuantity } from './language/quantities.js';
import { formsOf, type Token, tokenize } from './language/tokens.js';
import { isCommon, looseForms } from './language/wording.js';
import type { ClaimStatus } from './types.js';

export interface JudgeContext {
  question: string;
  questionBag: Set<string>;
  /** Content stems of the question, which often names the subject a claim's figure belongs to. */
  questionStems: Set<string>;
  questionQuantities: Quantity[];
  /** Every figure the answer states, for recomputing its arithmetic. */
  answerQuantities: Quantity[];
  /** The answer's opening "yes" or "no", if any. */
  polarity?: 'yes' | 'no' | undefined;
  view: SourceView;
}

export interface ClaimInput {
  text: string;
  /** The previous claim of the same answer, whose subject a follow-on claim may carry. */
  previous: string | undefined;
  /** Where the claim starts in the answer (to tell its own figures from the answer's others). */
  offset: number;
  /** Check against every candidate passage rather than the best few (a question read as a statement). */
  loose?: boolean;
}

export interface Judgment {
  status: ClaimStatus;
  score: number;
  /** Passages that decided, with their relation to the claim. */
  evidence: { passage: ReadPassage; relation: 'supports' | 'contradicts' | 'related' }[];
  /** Why the claim is not supported, one short sentence each. */
  reasons: string[];
  /** For a contradicted figure: the claim-relative span and the sources' value, for fixes. */
  replacement: { start: number; end: number; text: string } | undefined;
  /** Distinct sources that disagree with one another on this claim's figure. */
  conflictingSources: number[];
}

/** Share of the claim's new content words that the evidence must hold. */
const coverageFloor = 0.3;
/** The same for a claim whose figures or names were all found with its subject. */
const anchoredCoverageFloor = 0.15;
const limitPhrase =
  /\b(?:at least|at most|up to|no more than|no later than|no less than|a minimum of|a maximum of|more than|less than|over|under|within)\s+(?=[$€£\d]|(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve)\b)/i;
/** Weight of absent words (1 specific, 0.5 common noun, 0.25 other) from which low coverage counts. */
const commonAbsentLimit = 1;

/** How much an absent word weighs: specific vocabulary names facts, common words may paraphrase. */
function wordWeight(t: Token): number {
  if (!isCommon(t) && (t.pos === 'NOUN' || t.pos === 'PROPN' || t.pos === 'ADJ' || t.pos === 'VERB')) return 1;
  return t.pos === 'NOUN' || t.pos === 'ADJ' || t.pos === 'PROPN' ? 0.5 : 0.25;
}

export function judgeClaim(claim: ClaimInput, context: JudgeContext): Judgment {
  const tokens = tokenize(claim.text);
  const novel = tokens.filter((t) => t.content && !formsOf(t).some((f) => context.questionBag.has(f)));
  const short = novel.length <= 2;
  const candidates = retrieve(context.view, [
    { text: claim.text, weight: 1 },
    { text: context.question, weight: short ? 0.7 : 0.35 },
    ...(claim.previous ? [{ text: claim.previous, weight: 0.25 }] : []),
  ]);
  const best = candidates[0];
  const reasons: string[] = [];
  if (!best) {
    return {
      status: 'unsupported',
      score: 0,
      evidence: [],
      reasons: ['Nothing in the sources speaks about this.'],
      replacement: undefined,
      conflictingSources: [],
    };
  }
  // A bare answer ("Delhi", "July 5, 1984") has no subject of its own: the question located it, and
  // any passage among the candidates may hold it. A statement is bound to its best passages.
  const bare = isBare(tokens);
  // A bare answer the sources contain word for word ("Washington, D.C.") is located and supported.
  if (bare && claim.text.length >= 3 && context.view.mentions(claim.text)) {
    return {
      status: 'supported',
      score: 0.9,
      evidence: candidates
        .filter((c) => c.text.toLowerCase().includes(claim.text.toLowerCase()))
        .slice(0, 3)
        .map((passage) => ({ passage, relation: 'supports' as const })),
      reasons: [],
      replacement: undefined,
      conflictingSources: [],
    };
  }
  const bound = bare || claim.loose ? candidates : candidates.filter((c, i) => i < 3 && c.score >= best.score * 0.5);
  const boundBag = new Set(bound.flatMap((c) => [...c.bag]));
  // Figures: each must sit beside the claim's words in the sources (subject binding), or follow
  // from the answer's own figures. Another value sitting closer to the claim's words contradicts it.
  const claimQuantities = extractQuantities(claim.text).filter((q) => !context.questionQuantities.some((g) => sameQuantity(q, g)));
  const figures = judgeFigures(claimQuantities, claim, tokens, candidates, context);
  let contradicts: ReadPassage | undefined = figures.contradicts;
  const replacement: Judgment['replacement'] = figures.replacement;
  let strictMisses = figures.misses;
  reasons.push(...figures.reasons);
  const conflicting = figures.conflicting;

  // Names: capitalised words the question does not already give must occur with the subject.
  const names = tokens.filter((t, i) => isName(t, i, tokens) && !formsOf(t).some((f) => context.questionBag.has(f)));
  // Bound: in a passage that also holds another of the claim's words (not only somewhere nearby).
  // (Not the name's own head noun: "team" of "the IT Operations team" is part of the name.)
  const otherWords = tokens.filter(
    (t, i) => t.content && !names.includes(t) && !names.includes(tokens[i - 1]!) && !names.includes(tokens[i + 1]!),
  );
  const withSubject = (t: Token): boolean =>
    bare ||
    otherWords.length === 0 ||
    candidates.some(
      (c) => formsOf(t).some((f) => c.bag.has(f)) && otherWords.some((o) => o.stem !== t.stem && formsOf(o).some((f) => c.bag.has(f))),
    );
  // "the Orrin Canal" where the passage says "the canal" and the sources name the Orrin Canal elsewhere.
  const definite = new Set(
    nameRuns(tokens)
      .filter((run) => definitelyMentioned(tokens, run, bound, context.view))
      .flatMap(([s, e]) => tokens.slice(s, e)),
  );
  const missingNames = names.filter(
    (t) => !definite.has(t) && (!withSubject(t) || (!formsOf(t).some((f) => boundBag.has(f)) && !(bare && context.view.mentions(t.text)))),
  );
  if (missingNames.length > 0) {
    strictMisses++;
    reasons.push(`The sources do not mention ${missingNames.map((t) => t.text).join(' ')} here.`);
  }
  // A name made of the sources' words that they never give as a name ("Lake Erie Peninsula" where they
  // speak of "a sandy peninsula that juts into Lake Erie"): the claim coins it.
  const coined =
    missingNames.length === 0 && !bare
      ? claimNames(tokens).find((name) => {
          const words = name.split(' ');
          return (
            words.length >= 2 &&
            words.some((w) => !context.questionBag.has(w.toLowerCase())) &&
            words.every((w) => context.view.contains(w)) &&
            !context.view.mentionsExactly(name) &&
            !context.question.includes(name)
          );
        })
      : undefined;
  if (coined) {
    strictMisses++;
    reasons.push(`The sources never give the name "${coined}".`);
  }
  const praise = addedPraise(tokens, context.questionBag, (f) => context.view.contains(f));
  if (praise) {
    strictMisses++;
    reasons.push(`The sources do not call it "${praise.text}".`);
  }
  const away = missingNames.length === 0 && !bare ? wordAwayFromSubject(tokens, context.view) : undefined;
  if (away) {
    strictMisses++;
    reasons.push(`The sources say "${away.word}" of something else, not of ${away.subject}.`);
  }
  const variant = missingNames.length === 0 ? variantOwner(claim.text, candidates) : undefined;
  if (variant) {
    strictMisses++;
    reasons.push(variant);
  }

  // Wording: the remaining new words. Ordinary words may paraphrase (lemmas, stems, synonyms) and
  // weigh little when absent; a specific word (outside common vocabulary) found nowhere in the sources
  // means the claim says something they do not.
  const idioms = idiomSpans(claim.text);
  const words = novel.filter(
    (t) =>
      !names.includes(t) &&
      !claimQuantities.some((q) => t.start < q.end && t.end > q.start) &&
      !idioms.some(([from, to]) => t.start >= from && t.end <= to),
  );
  const nearBag = new Set(candidates.flatMap((c) => [...c.bag]));
  // Parts of compounds too: "non-refundable" holds "refundable".
  const nearWords = [...nearBag].flatMap((f) => f.split('-')).filter((f) => f.length >= 5);
  let matched = 0;
  let weight = 0;
  let absentWeight = 0;
  let absentSpecific = 0;
  // A synonym is looked for among ordinary words only: "jazz" is not found in "Earth, Wind & Fire".
  const boundWords = new Set(bound.flatMap((c) => [...c.wordBag]));
  const nearOrdinary = new Set(candidates.flatMap((c) => [...c.wordBag]));
  const foundIn = (t: Token, bag: Set<string>, ordinary: Set<string>): boolean =>
    formsOf(t).some((f) => bag.has(f)) || looseForms(t).some((f) => ordinary.has(f));
  for (const t of words) {
    const w = wordWeight(t);
    const forms = looseForms(t);
    weight += w;
    if (foundIn(t, boundBag, boundWords)) matched += w;
    else if (foundIn(t, nearBag, nearOrdinary)) matched += 0.75 * w;
    else if (forms.some((f) => context.view.contains(f))) matched += 0.5 * w;
    else if (sharesRoot(t, nearWords)) matched += 0.5 * w;
    else {
      absentWeight += w;
      if (w === 1) absentSpecific++;
    }
  }
  const coverage = weight === 0 ? 1 : matched / weight;
  // Figures and names found with the subject anchor a claim: its wording may then paraphrase freely.
  const anchored = strictMisses === 0 && (claimQuantities.length > 0 || names.length > 0);
  const floor = anchored ? anchoredCoverageFloor : coverageFloor;
  // A claim that restates the question ("Edwin Brown plays ...") adds its answer in its new words:
  // those must be found. Other clauses (inferences, asides) may paraphrase more freely.
  const restated = tokens.filter((t) => t.content && formsOf(t).some((f) => context.questionBag.has(f))).length;
  const limit = restated >= 2 ? 0 : commonAbsentLimit;
  // An inference drawn from the answer's other claims ("so no 90-day resets") restates them in its
  // own words: only its specifics are checked.
  const inference = /^(?:so|therefore|thus|hence|which means|that means|meaning|in which case|in other words)\b/i.test(claim.text);
  // A claim that restates the question at length and adds a specific word found nowhere in the
  // sources ("... has to limit the carbonation in beer") answers it with something the sources lack.
  const addsSpecific = restated >= 3 && absentSpecific > 0;
  // A specific word the claim takes from the question but the sources never use ("breastfeeding"):
  // the sources do not speak of it, so an assertion about it is not theirs (a denial may be).
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
  // A name counts at once; an ordinary word only when the rest of the claim is not well covered
  // either (a user's "compensation" echoed in an answer about the sources' "credits" is a paraphrase).
  const unknownCounts = unknownTopic.some((t) => /^\p{Lu}/u.test(t.text)) || (unknownTopic.length > 0 && coverage < 0.7);
  // Not in a denial, nor in an answer that opens with "no" ("No, Google Authenticator is not listed").
  const assertsUnknown = unknownCounts && context.polarity !== 'no' && !tokens.some((t) => negators.has(t.lower));
  if (assertsUnknown) reasons.push(`The sources never mention ${unknownTopic.map((t) => `"${t.text}"`).join(', ')}.`);
  const wordingFails = assertsUnknown || (!inference && ((absentWeight >= limit && coverage < floor) || addsSpecific));
  if (wordingFails) reasons.push('The sources do not say this.');

  // A word the sources never use, where they use another in the same phrase ("narrow gauge track").
  const absent = (t: Token): boolean =>
    !formsOf(t).some((f) => context.questionBag.has(f)) &&
    !looseForms(t).some((f) => context.view.contains(f)) &&
    !sharesRoot(t, nearWords) &&
    !context.view.mentions(t.text);
  const alias = contradicts ? undefined : aliasMismatch(claim.text, candidates);
  if (alias) {
    contradicts = alias.passage;
    reasons.push(`The sources give "${alias.instead}" under that name, not "${alias.said}".`);
  }
  const swapped = contradicts ? undefined : swappedWord(tokens, absent, bound);
  if (swapped) {
    contradicts = swapped.passage;
    reasons.push(`The sources say "${swapped.instead}", not "${swapped.said}".`);
  }

  // Negation: a predicate negated on one side and asserted on the other, or said with its antonym
  // ("off" / "on by default"), in a bound passage that speaks of the claim's subject.
  const top = bound[0]!;
  const antecedent = pronounAntecedent(claim.text, claim.previous);
  if (!contradicts && coverage >= 0.6) {
    for (const passage of bound) {
      const clash = [...polarityClash(tokens, passage.tokens), ...deniedButStated(tokens, passage.tokens)];
      if (clash.length === 0 && !antonymClash(tokens, passage.tokens)) continue;
      // Besides the clashing word, the passage must share the claim's subject (two words, one for the
      // best passage): "Basic plan includes 5 seats" says nothing about phone support on Basic.
      // (A claim opening with "it" shares the subject of the claim before it.)
      const shared = [...tokens, ...antecedent].filter(
        (t) => t.content && !clash.includes(t.stem) && formsOf(t).some((f) => passage.bag.has(f)),
      ).length;
      if (shared >= (passage === top ? 1 : 2)) {
        contradicts = passage;
        reasons.push('The sources say the opposite.');
        break;
      }
    }
  }

  // A superlative's value against the other values of its kind where the sources give it.
  const direction = contradicts ? undefined : directionOf(claim.text);
  const beyond = direction ? notTheMost(direction, claimQuantities, candidates) : undefined;
  if (beyond) {
    contradicts = beyond.passage;
    reasons.push(beyond.reason);
  }

  // A superlative the sources only give with a rank ("one of the largest", "the 2nd largest").
  const ranked = contradicts ? undefined : rankedSuperlative(claim.text, claimNames(tokens), bound);
  if (ranked) {
    contradicts = ranked;
    reasons.push('The sources rank it ("one of", "second"), not first.');
  }

  // The question's own figure against a limit the sources set where they speak of the claim ("He's
  // a 25 kg Labrador" against "pets up to 10 kg are welcome"): an assent drops that condition.
  if (!contradicts && context.polarity !== 'no' && !tokens.some((t) => negators.has(t.lower))) {
    const broken = brokenLimit(context.questionQuantities, bound.slice(0, 2));
    if (broken) {
      strictMisses++;
      reasons.push(`The sources set a limit ("${broken}") that the question's figure does not meet.`);
    }
  }

  // Quantifiers: "always", "every", "both" where the source restricts ("only", "unless", "if").
  // A determiner ("both conditions", "every account") quantifies over its noun: it only claims more
  // than the sources when that noun is what the sources speak of.
  const universal = tokens.find(
    (t, i) =>
      universals.has(t.lower) &&
      !context.questionBag.has(t.lower) &&
      !top.bag.has(t.lower) &&
      (t.pos !== 'DET' || quantifiesSourceNoun(tokens, i, top)),
  );
  const restriction = top.tokens.find((t) => restrictions.has(t.lower) && !tokens.some((c) => c.lower === t.lower));
  // A limit with a figure the claim leaves out ("announced at least 72 hours in advance") is a
  // condition as much as an "only" or an "if".
  const condition = limitPhrase.exec(top.text);
  const limitDropped =
    condition !== null && !top.quantities.some((s) => s.start >= condition.index && claimQuantities.some((q) => sameQuantity(q, s)));
  if (!contradicts && universal && ((restriction && /\b(only|unless|except|provided|if)\b/i.test(top.text)) || limitDropped)) {
    strictMisses++;
    reasons.push(
      `The sources limit this ("${restriction && !limitDropped ? restriction.text : condition![0]}"); the answer says "${universal.text}".`,
    );
  }

  // Relations: the verb that links a name to the rest of the claim must be the one the sources attach
  // to that name ("Neil Gaiman directed" where they say "written by Neil Gaiman").
  if (!contradicts && strictMisses === 0 && !wordingFails && !tokens.some((t) => negators.has(t.lower))) {
    const mismatch = relationMismatch(claim.text, candidates);
    const unlinked = mismatch ? undefined : unlinkedNames(claim.text, context.view);
    if (unlinked) {
      strictMisses++;
      reasons.push(`The sources never mention ${unlinked[0]} together with ${unlinked[1]}.`);
    }
    if (mismatch) {
      contradicts = mismatch.passage;
      reasons.push(mismatch.reason);
    }
  }

  let score = Math.min(1, 0.25 + 0.75 * coverage);
  if (strictMisses > 0) score = Math.min(score, 0.3);
  if (contradicts) score = Math.min(score, 0.1);
  const status: ClaimStatus = contradicts ? 'contradicted' : strictMisses > 0 || wordingFails ? 'unsupported' : 'supported';
  const evidence = bound.map((passage) => ({
    passage,
    relation: passage === contradicts ? ('contradicts' as const) : status === 'supported' ? ('supports' as const) : ('related' as const),
  }));
  if (contradicts && !bound.includes(contradicts)) evidence.unshift({ passage: contradicts, relation: 'contradicts' });
  return {
    status,
    score: round(score),
    evidence,
    reasons: status === 'supported' ? [] : reasons,
    replacement: contradicts ? replacement : undefined,
    conflictingSources: [...conflicting],
  };
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
