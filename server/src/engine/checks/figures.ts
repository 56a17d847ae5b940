// Figures of a claim against the sources: each must sit beside the claim's words (subject binding),
// or follow from the answer's own figures. Another value sitting clearly closer to the claim's words
// contradicts it; a value whose neighbours are another subject's names, or another kind of the
// claim's thing ("the morning lift ticket" for "the night lift ticket"), leaves it unsupported.

import type { ClaimReading } from '../claims/reading.js';
import { type Binding, bindQuantity, foreignOwner, labelPairs, type Occurrence, stemsOf } from '../evidence/binding.js';
import { pronounSubject } from '../evidence/coreference.js';
import { kindsOf, otherKind } from '../evidence/kinds.js';
import { derivable, derivableDate, impliedFactors } from '../language/arithmetic.js';
import { isName } from '../language/cues.js';
import type { Quantity } from '../language/quantities.js';
import { tokenize } from '../language/tokens.js';
import { type ClaimCheck, type Signal, signal } from './check.js';

/** How much better another value must be placed than the claim's own for the claim to be displaced. */
const displacedMargin = 4;
/** A figure the claim gives as a limit ("up to 50%"), which a cap in the sources may support. */
const limitBefore = /\b(?:up to|at most|no more than|a maximum of|maximum|not exceed|capped at|limited to)\s+$/i;
/** The noun after a figure can make it a limit too: "the €180 cap", "a 40-hour limit". */
const limitAfter = /^\s*(?:cap|limit|maximum|ceiling)\b/i;

/** What the claim says around its figures, read once for all of them. */
interface ClaimFigures {
  /** The claim's content stems. */
  own: Set<string>;
  /** Its "word number" labels ("grade 5"). */
  labels: Map<string, string>;
  /** Stems of the claim's names. */
  names: Set<string>;
  /** The claim's names and the name a pronoun in it stands for. */
  subject: Set<string>;
  /** The question's content stems, its names among them ("Steady Fix" or "weekend plus" asked about). */
  asked: Set<string>;
  /** Stems of the question and the previous claim. */
  around: Set<string>;
  /** Which kind of its thing the claim speaks of ("night lift ticket"). */
  kinds: ReturnType<typeof kindsOf>;
}

function claimFigures(claim: ClaimReading): ClaimFigures {
  const { context, tokens } = claim;
  const names = new Set(tokens.filter((t, i) => isName(t, i, tokens)).map((t) => t.stem));
  const question = tokenize(context.question);
  const questionNames = question.filter((t, i) => isName(t, i, question)).map((t) => t.stem);
  return {
    own: stemsOf(tokens),
    asked: new Set([...context.questionStems, ...questionNames]),
    labels: labelPairs(tokens),
    names,
    subject: new Set([...names, ...pronounSubject(claim.text, claim.previous, context.question).map((t) => t.stem)]),
    around: new Set([...context.questionStems, ...(claim.previous ? stemsOf(tokenize(claim.previous)) : [])]),
    kinds: kindsOf(claim.text, claim.previous),
  };
}

/** What the sources say of one figure: at most one signal, and the sources that disagree on it. */
interface FigureFinding {
  signal?: Signal;
  conflicting?: [number, number];
}

/**
 * A figure the sources give where the claim's words are: it may still belong to another subject or
 * another kind of the claim's thing, and another source may give another value in the same place.
 */
function placedFigure(
  q: Quantity,
  agreeing: Occurrence,
  rival: Occurrence | undefined,
  claim: ClaimReading,
  figures: ClaimFigures,
): FigureFinding {
  const { context } = claim;
  // A claim opening with "it" speaks of the previous claim's (or the question's) subject: that name is its own.
  const record = context.view.recordOf(agreeing.passage.id).map((id) => context.view.read(id, 0));
  const owner = foreignOwner(agreeing, figures.subject, figures.own, figures.asked, record);
  if (owner)
    return {
      signal: signal('figure_other_subject', 'unsupported', `In the sources ${q.text} belongs to ${owner}.`, { passage: agreeing.passage }),
    };
  // "That ticket costs $30" where the $30 is the morning lift ticket's, not the claim's ticket's.
  const passageKinds = kindsOf(agreeing.passage.text, context.view.index.passages[agreeing.passage.id - 1]?.text);
  const kind = otherKind(figures.kinds, passageKinds, context.view);
  if (kind)
    return {
      signal: signal('figure_other_kind', 'unsupported', `In the sources ${q.text} is about the ${kind.instead}, not the ${kind.said}.`, {
        passage: agreeing.passage,
      }),
    };
  // Another source's passage that gives another value in the same place: the sources disagree.
  if (rival && rival.passage.source !== agreeing.passage.source && rival.score >= agreeing.score && rival.score >= 2)
    return { conflicting: [agreeing.passage.source, rival.passage.source] };
  return {};
}

/**
 * Whether `q` is a fraction or percentage the answer states ("half", "a third", "20%") of one of the sources' values
 * `of`, or that value less or more by it ("30% off the $30 price, so $21").
 */
function shareOf(q: Quantity, of: Quantity[], pool: Quantity[]): boolean {
  const shares = pool.flatMap((p) => (p.kind === 'fraction' ? [p.value] : p.kind === 'percent' ? [p.value / 100] : []));
  const factors = shares.filter((f) => f > 0 && f < 1).flatMap((f) => [f, 1 - f, 1 + f]);
  return of.some(
    (o) =>
      q.kind === o.kind &&
      q.unit === o.unit &&
      factors.some((f) => Math.abs(o.value * f - q.value) <= Math.max(0.006, 0.0005 * Math.abs(q.value))),
  );
}

/** How many figures before a total may add up to it ("£68, £6 and £22, so £96 in total"). */
const totalTerms = 6;

/**
 * Whether `q` is the sum of the figures of its kind the answer gives just before it, three or more of them (two are
 * `derivable`'s): a total of the items just listed, not of any figures picked from the answer.
 */
function runningTotal(q: Quantity, claim: ClaimReading): boolean {
  const at = q.start + claim.offset;
  const before = claim.context.answerQuantities.filter((p) => p.end <= at && p.kind === q.kind && p.unit === q.unit).slice(-totalTerms);
  let sum = 0;
  for (let k = before.length - 1, terms = 1; k >= 0; k--, terms++) {
    sum += before[k]!.value;
    if (terms >= 3 && Math.abs(sum - q.value) <= 0.005 * Math.abs(q.value)) return true;
  }
  return false;
}

/** A figure the sources do not give where the claim's words are: derived, found elsewhere, contradicted or not stated. */
function unplacedFigure(q: Quantity, binding: Binding, displaced: boolean, others: Quantity[], claim: ClaimReading): Signal | undefined {
  const { context } = claim;
  const { agreeing, rival } = binding;
  const pool = [...others, ...context.questionQuantities];
  if (derivable(q, pool, impliedFactors(context.answer)) || derivableDate(q, pool) || runningTotal(q, claim)) return undefined;
  // Found only outside the best passages (a large source): stated, with nothing closer against it.
  // (Each word looked up in the index first: a full-text scan costs a millisecond per megabyte.)
  const indexed = [...q.text.matchAll(/[\p{L}\p{N}]+/gu)].every((m) => context.view.contains(m[0]));
  if (!agreeing && !displaced && indexed && context.view.mentions(q.text)) return undefined;
  if (!rival || !(displaced || rival.score >= 2)) {
    // "One caveat", "with one exception", "a single book": a count of one is how English introduces a thing, which
    // sources say with "a" or not at all ("only one", "exactly one" insist on the count). Against
    // another value in its place it is still contradicted.
    const introduces =
      q.kind === 'count' &&
      /^(?:one|single)$/i.test(q.text) &&
      !/\b(?:only|just|exactly|precisely)\s+$/i.test(claim.text.slice(0, q.start));
    if (introduces) return undefined;
    return signal('figure_not_stated', 'unsupported', `The sources do not state ${q.text}.`);
  }
  // "half the full-day allowance, so €22.50" where the sources give €45: the answer's own share of the value in its place.
  if (shareOf(q, [rival.q, ...claim.candidates.flatMap((p) => p.quantities)], pool)) return undefined;
  const reason = agreeing
    ? `In the sources ${q.text} belongs to another subject; here they give ${rival.q.text}.`
    : `The sources give ${rival.q.text} where the answer says ${q.text}.`;
  return signal('figure_contradicted', 'contradicted', reason, {
    passage: rival.passage,
    replacement: { start: q.start, end: q.end, text: rival.q.text },
  });
}

function figureFinding(q: Quantity, claim: ClaimReading, figures: ClaimFigures): FigureFinding {
  const { context } = claim;
  // The answer's other figures are not rivals: "half an hour of rowing, then five minutes' rest" states both.
  const others = context.answerQuantities.filter((p) => p.start !== q.start + claim.offset);
  const limit = limitBefore.test(claim.text.slice(0, q.start)) || limitAfter.test(claim.text.slice(q.end));
  const binding = bindQuantity(q, claim.candidates, {
    own: figures.own,
    around: figures.around,
    names: figures.names,
    stated: others,
    labels: figures.labels,
    limit,
  });
  const { agreeing, rival } = binding;
  // Displaced: another value sits beside clearly more of the claim's words (two more of its own
  // words, or one more name) than any place where the sources give the claim's value.
  const displaced = rival !== undefined && rival.score >= displacedMargin && rival.score >= (agreeing?.score ?? 0) + displacedMargin;
  if (agreeing && !displaced) return placedFigure(q, agreeing, rival, claim, figures);
  return { signal: unplacedFigure(q, binding, displaced, others, claim) };
}

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
    const figures = claimFigures(claim);
    const signals: Signal[] = [];
    const conflicting = new Set<number>();
    for (const q of claim.quantities) {
      const finding = figureFinding(q, claim, figures);
      if (finding.signal) signals.push(finding.signal);
      for (const source of finding.conflicting ?? []) conflicting.add(source);
    }
    if (claim.quantities.length > 0 && signals.length === 0)
      signals.push(signal('figures_bound', 'confidence', 'Its figures stand with its subject in the sources.'));
    if (conflicting.size > 1)
      signals.push(signal('source_conflict', 'note', 'The sources give different values.', { conflictingSources: [...conflicting] }));
    return signals;
  },
};
