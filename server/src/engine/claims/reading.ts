// What every check reads of one claim, computed once: its words, its figures and names, the
// passages retrieved for it, and how much of its wording those passages cover. Checks read this;
// none of them changes it or another check's result.

import { type ReadPassage, retrieve, type SourceView } from '../evidence/retrieval.js';
import { idiomSpans, isBare, isName, sharesRoot } from '../language/cues.js';
import { dayRanges } from '../language/dates.js';
import { extractQuantities, type Quantity, sameQuantity } from '../language/quantities.js';
import { formsOf, type Token, tokenize } from '../language/tokens.js';
import { isCommon, looseForms } from '../language/wording.js';
import type { ClaimSpan } from './split.js';

/** What the whole answer and its question give every claim's checks. */
export interface AnswerContext {
  question: string;
  questionBag: Set<string>;
  /** Content stems of the question, which often names the subject a claim's figure belongs to. */
  questionStems: Set<string>;
  questionQuantities: Quantity[];
  answer: string;
  /** Every figure the answer states, for recomputing its arithmetic. */
  answerQuantities: Quantity[];
  /** The answer's opening "yes" or "no", if any. */
  polarity: 'yes' | 'no' | undefined;
  spans: ClaimSpan[];
  view: SourceView;
}

export interface ClaimInput {
  text: string;
  /** The previous claim of the same answer, whose subject a follow-on claim may carry. */
  previous: string | undefined;
  /** Where the claim starts in the answer (to tell its own figures from the answer's others). */
  offset: number;
  /** The claim's place among the answer's claims; -1 for the question read as a statement. */
  index: number;
  /** Check against every candidate passage rather than the best few (a question read as a statement). */
  loose?: boolean;
}

export interface Wording {
  /** Share (by weight) of the claim's new words the passages hold, 0-1. */
  coverage: number;
  /** Weight of new words found nowhere near. */
  absentWeight: number;
  /** Specific words (outside common vocabulary) found nowhere. */
  absentSpecific: number;
  /** The claim's words found nowhere near, as it writes them: what a reason names. */
  absentWords: string[];
  /** Content words the claim shares with the question. */
  restated: number;
}

export interface ClaimReading extends ClaimInput {
  context: AnswerContext;
  tokens: Token[];
  /** Content words the question does not already give. */
  novel: Token[];
  /** Passages retrieved for the claim, best first. */
  candidates: ReadPassage[];
  /** The passages the claim is bound to: the best few, or all candidates for a bare answer. */
  bound: ReadPassage[];
  boundBag: Set<string>;
  /** A name, figure or date alone, located by the question rather than by words of its own. */
  bare: boolean;
  /** The claim's figures, less those the question states. */
  quantities: Quantity[];
  /** Capitalised words the question does not already give. */
  names: Token[];
  /** Long forms near the claim, and their compound parts ("non-members" holds "members"). */
  nearWords: string[];
  wording: Wording;
  /** Whether a word is absent from the question and from the sources in every form. */
  absent(t: Token): boolean;
}

/** How much an absent word weighs: specific vocabulary names facts, common words may paraphrase. */
export function wordWeight(t: Token): number {
  if (!isCommon(t) && (t.pos === 'NOUN' || t.pos === 'PROPN' || t.pos === 'ADJ' || t.pos === 'VERB')) return 1;
  return t.pos === 'NOUN' || t.pos === 'ADJ' || t.pos === 'PROPN' ? 0.5 : 0.25;
}

/** The forms of the passages around a claim, from the bound ones out to every candidate. */
interface NearWords {
  boundBag: Set<string>;
  boundWords: Set<string>;
  nearBag: Set<string>;
  nearOrdinary: Set<string>;
  nearWords: string[];
}

function foundIn(t: Token, bag: Set<string>, ordinary: Set<string>): boolean {
  return formsOf(t).some((f) => bag.has(f)) || looseForms(t).some((f) => ordinary.has(f));
}

/** The share of a word's weight the sources hold: fully in the bound passages, less further away, 0 when absent. */
function foundShare(t: Token, near: NearWords, view: SourceView): number {
  if (foundIn(t, near.boundBag, near.boundWords)) return 1;
  if (foundIn(t, near.nearBag, near.nearOrdinary)) return 0.75;
  if (looseForms(t).some((f) => view.contains(f))) return 0.5;
  if (sharesRoot(t, near.nearWords)) return 0.5;
  return 0;
}

function coverageOf(words: Token[], near: NearWords, view: SourceView): Omit<Wording, 'restated'> {
  let matched = 0;
  let weight = 0;
  let absentWeight = 0;
  let absentSpecific = 0;
  const absentWords: string[] = [];
  for (const t of words) {
    const w = wordWeight(t);
    weight += w;
    const share = foundShare(t, near, view);
    if (share > 0) matched += share * w;
    else {
      absentWeight += w;
      absentWords.push(t.text);
      if (w === 1) absentSpecific++;
    }
  }
  return { coverage: weight === 0 ? 1 : matched / weight, absentWeight, absentSpecific, absentWords };
}

const comparatives = /^(?:more|less|fewer|cheaper|dearer|pricier|costlier|higher|lower|longer|shorter|bigger|smaller|larger|greater)$/;

export function readClaim(claim: ClaimInput, context: AnswerContext): ClaimReading {
  const { view } = context;
  const tokens = tokenize(claim.text);
  const novel = tokens.filter((t) => t.content && !formsOf(t).some((f) => context.questionBag.has(f)));
  const short = novel.length <= 2;
  const candidates = retrieve(view, [
    { text: claim.text, weight: 1 },
    { text: context.question, weight: short ? 0.7 : 0.35 },
    ...(claim.previous ? [{ text: claim.previous, weight: 0.25 }] : []),
  ]);
  const best = candidates[0];
  const bare = isBare(tokens);
  const bound = bare || claim.loose || !best ? candidates : candidates.filter((c, i) => i < 3 && c.score >= best.score * 0.5);
  const boundBag = new Set(bound.flatMap((c) => [...c.bag]));
  const quantities = extractQuantities(claim.text).filter((q) => !context.questionQuantities.some((g) => sameQuantity(q, g)));
  // A bare answer has no sentence to open: its first capitalised noun is a name ("Bergen").
  const opensBare = (t: Token, i: number) => bare && i === 0 && /^\p{Lu}/u.test(t.text) && t.pos === 'PROPN';
  const names = tokens.filter((t, i) => (isName(t, i, tokens) || opensBare(t, i)) && !formsOf(t).some((f) => context.questionBag.has(f)));
  const nearBag = new Set(candidates.flatMap((c) => [...c.bag]));
  const nearWords = [...nearBag].flatMap((f) => f.split('-')).filter((f) => f.length >= 5);
  const absent = (t: Token): boolean =>
    !formsOf(t).some((f) => context.questionBag.has(f)) &&
    !looseForms(t).some((f) => view.contains(f)) &&
    !sharesRoot(t, nearWords) &&
    !view.mentions(t.text);
  // The remaining new words. Ordinary words may paraphrase (lemmas, stems, synonyms) and weigh
  // little when absent; a specific word found nowhere means the claim says something the sources do not.
  // A span of weekdays ("Monday to Friday") is found when the sources say what it stands for ("weekdays").
  const said = (word: string) => boundBag.has(word) || view.contains(word);
  const idioms = [
    ...idiomSpans(claim.text),
    ...dayRanges(claim.text)
      .filter((r) => r.words.some(said))
      .map((r): [number, number] => [r.start, r.end]),
  ];
  // "$155 a month more", "two days longer": a comparative beside a figure relates values, which the figures
  // and comparison checks judge; the sources need not use the word.
  const relating = (t: Token) => quantities.length > 0 && comparatives.test(t.lower);
  const words = novel.filter(
    (t) =>
      !names.includes(t) &&
      !quantities.some((q) => t.start < q.end && t.end > q.start) &&
      !idioms.some(([from, to]) => t.start >= from && t.end <= to) &&
      !relating(t),
  );
  // A synonym is looked for among ordinary words only: "breeze" is not found in "North Wind Rowing Club".
  const near: NearWords = {
    boundBag,
    boundWords: new Set(bound.flatMap((c) => [...c.wordBag])),
    nearBag,
    nearOrdinary: new Set(candidates.flatMap((c) => [...c.wordBag])),
    nearWords,
  };
  const restated = tokens.filter((t) => t.content && formsOf(t).some((f) => context.questionBag.has(f))).length;
  const wording = { ...coverageOf(words, near, view), restated };
  return {
    ...claim,
    context,
    tokens,
    novel,
    candidates,
    bound,
    boundBag,
    bare,
    quantities,
    names,
    nearWords,
    wording,
    absent,
  };
}
