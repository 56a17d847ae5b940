// The deterministic judge: strict on specifics (figures, names, negation), lenient on wording
// (lemmas, stems, the question's own words, framing). One claim at a time, against the passages
// that speak about the claim's own subject.
import { derivable } from './arithmetic.js';
import { retrieve, type ReadPassage, type SourceView } from './evidence.js';
import { polarityClash } from './negation.js';
import { comparableKinds, extractQuantities, sameQuantity, type Quantity } from './quantities.js';
import { restrictions, universals } from './lexicon.js';
import { formsOf, tokenize, type Token } from './tokens.js';
import type { ClaimStatus } from './types.js';

export interface JudgeContext {
  question: string;
  questionBag: Set<string>;
  questionQuantities: Quantity[];
  /** Every figure the answer states, for recomputing its arithmetic. */
  answerQuantities: Quantity[];
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
    return { status: 'unsupported', score: 0, evidence: [], reasons: ['Nothing in the sources speaks about this.'], replacement: undefined, conflictingSources: [] };
  }
  // A bare answer ("Delhi", "July 5, 1984") has no subject of its own: the question located it, and
  // any passage among the candidates may hold it. A statement is bound to its best passages.
  const bare = isBare(tokens);
  const bound = bare || claim.loose ? candidates : candidates.filter((c, i) => i < 3 && c.score >= best.score * 0.5);
  const boundBag = new Set(bound.flatMap((c) => [...c.bag]));
  let contradicts: ReadPassage | undefined;
  let replacement: Judgment['replacement'];
  let strictMisses = 0;

  // Figures: each must be found with the claim's subject, or follow from the answer's own figures.
  const claimQuantities = extractQuantities(claim.text).filter((q) => !context.questionQuantities.some((g) => sameQuantity(q, g)));
  // Subject binding: a figure counts only from a passage that names what the claim names, when some
  // bound passage does ("the Basic plan's 5 seats", not the Team plan's 50 in the next sentence).
  const claimNames = tokens.filter((t, i) => isName(t, i, tokens)).map((t) => t.lower).filter((n) => boundBag.has(n));
  const subjectPassages = bound.filter((c) => claimNames.every((n) => c.bag.has(n)));
  const boundQuantities = (subjectPassages.length > 0 ? subjectPassages : bound).flatMap((c) => c.quantities.map((q) => ({ q, c })));
  const conflicting = new Set<number>();
  for (const q of claimQuantities) {
    const agreeing = boundQuantities.find(({ q: s }) => sameQuantity(q, s));
    if (agreeing) {
      // Another source's passage on the same subject that gives another value: the sources disagree.
      for (const other of candidates) {
        if (other.source === agreeing.c.source || other.score < best.score * 0.8) continue;
        if (other.quantities.some((s) => comparableKinds(q, s)) && !other.quantities.some((s) => sameQuantity(q, s))) {
          conflicting.add(agreeing.c.source).add(other.source);
        }
      }
      continue;
    }
    if (bare && context.view.mentions(q.text)) continue;
    const pool = [...context.answerQuantities.filter((p) => p.start !== q.start + claim.offset), ...context.questionQuantities];
    if (derivable(q, pool)) continue;
    const rival = boundQuantities.find(({ q: s }) => comparableKinds(q, s));
    const elsewhere = candidates.find((c) => !bound.includes(c) && c.quantities.some((s) => sameQuantity(q, s)));
    if (rival) {
      contradicts ??= rival.c;
      replacement ??= { start: q.start, end: q.end, text: rival.q.text };
      reasons.push(`The sources give ${rival.q.text} where the answer says ${q.text}.`);
    } else {
      strictMisses++;
      reasons.push(elsewhere ? `${q.text} belongs to another subject in the sources.` : `The sources do not state ${q.text}.`);
    }
  }

  // Names: capitalised words the question does not already give must occur with the subject.
  const names = tokens.filter((t, i) => isName(t, i, tokens) && !formsOf(t).some((f) => context.questionBag.has(f)));
  const missingNames = names.filter((t) => !formsOf(t).some((f) => boundBag.has(f)) && !(bare && context.view.mentions(t.text)));
  if (missingNames.length > 0) {
    strictMisses++;
    reasons.push(`The sources do not mention ${missingNames.map((t) => t.text).join(' ')} here.`);
  }

  // Wording: the remaining new content words, matched through lemmas and light stems.
  const words = novel.filter((t) => !names.includes(t));
  let matched = 0;
  for (const t of words) {
    if (formsOf(t).some((f) => boundBag.has(f))) matched++;
    else if (context.view.contains(t.text) || context.view.contains(t.lemma)) matched += 0.5;
  }
  const coverage = words.length === 0 ? 1 : matched / words.length;
  // Figures and names found with the subject anchor a claim: its wording may then paraphrase freely.
  const anchored = strictMisses === 0 && (claimQuantities.length > 0 || names.length > 0);
  const floor = anchored ? anchoredCoverageFloor : coverageFloor;
  if (coverage < floor) reasons.push('The sources do not say this.');

  // Negation: a word negated on one side and asserted on the other.
  const top = bound[0]!;
  if (!contradicts && coverage >= 0.6) {
    const clash = polarityClash(tokens, top.tokens);
    if (clash.length > 0) {
      contradicts = top;
      reasons.push('The sources say the opposite.');
    }
  }

  // Quantifiers: "always", "every", "both" where the source restricts ("only", "unless", "if").
  const universal = tokens.find((t) => universals.has(t.lower) && !context.questionBag.has(t.lower) && !top.bag.has(t.lower));
  const restriction = top.tokens.find((t) => restrictions.has(t.lower) && !tokens.some((c) => c.lower === t.lower));
  if (!contradicts && universal && restriction && /\b(only|unless|except|provided|if)\b/i.test(top.text)) {
    strictMisses++;
    reasons.push(`The sources limit this ("${restriction.text}"); the answer says "${universal.text}".`);
  }

  let score = Math.min(1, 0.25 + 0.75 * coverage);
  if (strictMisses > 0) score = Math.min(score, 0.3);
  if (contradicts) score = Math.min(score, 0.1);
  const status: ClaimStatus = contradicts ? 'contradicted' : strictMisses > 0 || coverage < floor ? 'unsupported' : 'supported';
  const evidence = bound.map((passage) => ({ passage, relation: passage === contradicts ? ('contradicts' as const) : status === 'supported' ? ('supports' as const) : ('related' as const) }));
  if (contradicts && !bound.includes(contradicts)) evidence.unshift({ passage: contradicts, relation: 'contradicts' });
  return { status, score: round(score), evidence, reasons: status === 'supported' ? [] : reasons, replacement: contradicts ? replacement : undefined, conflictingSources: [...conflicting] };
}

const calendarWords = /^(january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday)$/i;

function isName(token: Token, index: number, tokens: Token[]): boolean {
  if (!/^\p{Lu}/u.test(token.text) || (!/[\p{L}]{2,}/u.test(token.text) && !/^[IVX]+$/.test(token.text))) return false;
  if (calendarWords.test(token.text)) return false;
  // A capital opening the claim is only a name when the next word is capitalised too ("Orrin Canal").
  if (index === 0) return /^\p{Lu}/u.test(tokens[1]?.text ?? '') && tokens[1]!.pos === 'PROPN';
  return token.pos === 'PROPN' || token.content;
}

/** An answer that is only a name, a figure or a date: no verb, a few words. */
function isBare(tokens: Token[]): boolean {
  const words = tokens.filter((t) => /[\p{L}\p{N}]/u.test(t.text));
  return words.length <= 6 && !tokens.some((t) => t.pos === 'VERB' || t.pos === 'AUX');
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
