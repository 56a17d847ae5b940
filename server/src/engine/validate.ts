// validate: split the answer into claims, judge each against the sources, summarise.

import { type ClaimVerdict, summarise } from './aggregate/summary.js';
import { unanswered } from './checks/answer-kind.js';
import { checkBoth, checkContrast, type JointVerdict } from './checks/joint.js';
import { checkOptions } from './checks/options.js';
import { directionOf, wrongOrder } from './checks/ordering.js';
import { shortList } from './checks/short-list.js';
import { type ClaimSpan, splitAnswer } from './claims/split.js';
import { stemsOf } from './evidence/binding.js';
import { type ReadPassage, retrieve, type SourceView, viewSources } from './evidence/retrieval.js';
import { type JudgeContext, type Judgment, judgeClaim } from './judge.js';
import { extractQuantities, sameQuantity } from './language/quantities.js';
import { formBag, formsOf, tokenize } from './language/tokens.js';
import {
  type Claim,
  defaultThresholds,
  type EngineRequest,
  type EngineThresholds,
  type EngineValidation,
  type Evidence,
  type Finding,
} from './types.js';
import { deterministicEngine } from './version.js';

const evidenceTextLimit = 1000;
/** The statement an answer gives when the sources do not answer the question. */
export const noAnswer = 'The sources do not answer this question.';

export interface ValidationDetail {
  result: EngineValidation;
  spans: ClaimSpan[];
  judgments: Judgment[];
  view: SourceView;
}

export function thresholdsOf(request: EngineRequest): EngineThresholds {
  return { ...defaultThresholds, ...request.thresholds };
}

export function validateDetailed(request: EngineRequest): ValidationDetail {
  const answer = request.answer ?? '';
  const thresholds = thresholdsOf(request);
  const split = splitAnswer(answer);
  const view = viewSources(request.sources, [request.question, ...split.claims.map((c) => c.text)]);
  const context: JudgeContext = {
    question: request.question,
    questionBag: formBag(tokenize(request.question)),
    questionStems: stemsOf(tokenize(request.question)),
    questionQuantities: extractQuantities(request.question),
    answerQuantities: extractQuantities(answer),
    polarity: split.polarity,
    view,
  };
  const spans = [...split.claims];
  const judgments = spans.map((span, i) => judgeClaim({ text: span.text, previous: spans[i - 1]?.text, offset: span.start }, context));
  // A bare "yes" or "no" is checked as the question's own statement.
  if (spans.length === 0 && split.polarity && split.polaritySpan) {
    const [start, end] = split.polaritySpan;
    const statement = judgeClaim(
      { text: request.question.replace(/\?\s*$/, ''), previous: undefined, offset: -1, loose: true },
      { ...context, questionBag: new Set(), questionStems: new Set(), questionQuantities: [] },
    );
    spans.push({ text: answer.slice(start, end), start, end, sentenceStart: start, sentenceEnd: end });
    judgments.push(split.polarity === 'yes' ? assent(statement) : denial(statement, request.question));
  }
  // A claim that ends in an open question ("... starring Bill Murray on what show?") asks rather than
  // answers: it leaves the asked value open.
  spans.forEach((span, i) => {
    const open = /\b(?:what|which|who|whom|where|when)\b/i.test(span.text) && /\?\s*$/.test(answer.slice(span.start, span.end + 2));
    if (open && judgments[i]!.status === 'supported')
      judgments[i] = { ...judgments[i]!, status: 'unsupported', score: 0.3, reasons: ['The answer asks this instead of answering it.'] };
  });
  // Claims about two subjects at once, checked in each subject's own sentences.
  const joint = (index: number, verdict: JointVerdict | undefined, why: string): void => {
    if (!verdict || verdict.holds) return;
    const passages = verdict.passageIds.slice(0, 3).map((id) => ({ passage: view.read(id, 0), relation: 'contradicts' as const }));
    judgments[index] = {
      ...judgments[index]!,
      status: 'contradicted',
      score: 0.1,
      evidence: passages,
      reasons: [why.replace('%s', verdict.subject)],
      replacement: undefined,
    };
  };
  spans.forEach((span, i) => {
    if (judgments[i]!.status !== 'supported') return;
    // A set stated as "the members are A and B" where the sources list more with them.
    const short = shortList(
      span.text,
      judgments[i]!.evidence.map((e) => e.passage),
    );
    if (short)
      judgments[i] = {
        ...judgments[i]!,
        status: 'contradicted',
        score: 0.1,
        evidence: [{ passage: short.passage, relation: 'contradicts' }],
        reasons: [`The sources list ${short.missing.join(', ')} as well.`],
        replacement: undefined,
      };
    joint(i, checkBoth(span.text, view), 'The sources do not say this of %s.');
    const last = i === spans.length - 1 || spans[i + 1]!.sentenceStart !== span.sentenceStart;
    if (last && judgments[i]!.status === 'supported')
      joint(i, checkContrast(answer.slice(span.sentenceStart, span.sentenceEnd), view), 'The sources do say this of %s.');
  });
  if (split.polarity === 'yes' && spans.length > 0 && /\bboth\b/i.test(request.question))
    joint(0, checkBoth(request.question.replace(/\?\s*$/, ''), view), 'The sources do not say this of %s, so the answer is no.');
  // A comparison the answer draws from its own figures ("so the wire is the pricier of the two").
  spans.forEach((span, i) => {
    const direction = judgments[i]!.status === 'supported' ? directionOf(span.text) : undefined;
    if (!direction) return;
    const previous = spans.filter((s) => s.sentenceEnd <= span.sentenceStart).pop();
    const from = previous ? previous.sentenceStart : span.sentenceStart;
    const values = context.answerQuantities.filter(
      (q) =>
        q.start >= from &&
        q.end <= span.sentenceEnd &&
        q.start < span.start + direction.at &&
        !context.questionQuantities.some((g) => sameQuantity(q, g)),
    );
    const reason = wrongOrder(direction, answer, values);
    if (reason)
      judgments[i] = {
        ...judgments[i]!,
        status: 'contradicted',
        score: 0.1,
        reasons: [reason],
        evidence: judgments[i]!.evidence.map((e) => ({ ...e, relation: 'related' as const })),
        replacement: undefined,
      };
  });
  // A question offering options: the claim that picks the option the sources do not favour is contradicted.
  // A "yes" to a question whose situation the sources exclude ("residents whose heating is included
  // in the rent ... are not eligible" for "heating is included in my rent. Can I apply?").
  if (split.polarity === 'yes' && spans.length > 0 && judgments[0]!.status === 'supported') {
    const excluded = exclusionOf(request.question, view);
    if (excluded)
      judgments[0] = {
        ...judgments[0]!,
        status: 'contradicted',
        score: 0.1,
        evidence: [{ passage: excluded, relation: 'contradicts' }],
        reasons: ['The sources exclude the situation the question describes.'],
        replacement: undefined,
      };
  }
  const choice = spans.length > 0 ? checkOptions(request.question, answer, view) : undefined;
  if (choice && choice.chosen !== choice.expected) {
    const index = Math.max(
      0,
      spans.findIndex((s) => s.text.toLowerCase().includes(choice.chosen.toLowerCase().split(' ').pop()!)),
    );
    const passages = choice.passageIds.slice(0, 4).map((id) => ({ passage: view.read(id, 0), relation: 'contradicts' as const }));
    judgments[index] = {
      ...judgments[index]!,
      status: 'contradicted',
      score: 0.1,
      evidence: passages,
      reasons: [`Going ${choice.reason}, the answer is ${choice.expected}, not ${choice.chosen}.`],
      replacement: undefined,
    };
  }
  const verdicts: ClaimVerdict[] = spans.map((span, i) => {
    const judgment = judgments[i]!;
    const claim: Claim = {
      text: span.text,
      start: span.start,
      end: span.end,
      status: judgment.status,
      score: judgment.score,
      evidence: judgment.evidence.map(({ passage, relation }) => toEvidence(passage, relation, request)),
    };
    return { claim, reasons: judgment.reasons, conflictingSources: judgment.conflictingSources };
  });
  const extra: Finding[] = [];
  if (request.sources.every((s) => s.text.trim() === '')) {
    extra.push({
      category: 'source_unavailable',
      status: 'failed',
      severity: 'high',
      claim_index: null,
      title: 'No source text',
      description: 'None of the sources holds any text to check the answer against.',
    });
  } else if (spans.length === 0 && !abstains(answer)) {
    extra.push({
      category: 'incomplete_answer',
      status: 'warning',
      severity: 'low',
      claim_index: null,
      title: 'Nothing to check',
      description: 'The answer makes no factual claim that could be checked against the sources.',
    });
  } else if (!split.polarity && !abstains(answer)) {
    const gap = unanswered(request.question, answer);
    if (gap)
      extra.push({
        category: 'incomplete_answer',
        status: 'warning',
        severity: thresholds.unsupportedSeverity,
        claim_index: null,
        title: 'Does not answer the question',
        description: gap,
      });
  }
  const summary = summarise(verdicts, extra, thresholds);
  return { result: { claims: verdicts.map((v) => v.claim), ...summary, engine: { ...deterministicEngine } }, spans, judgments, view };
}

const exclusion =
  /\b(?:not eligible|ineligible|not covered|are excluded|is excluded|does not cover|do not cover|cannot apply|may not apply|not accepted)\b/i;

/** The passage that describes the question's situation closely and excludes it, if any. */
function exclusionOf(question: string, view: SourceView): ReadPassage | undefined {
  const wanted = tokenize(question).filter((t) => t.content);
  if (wanted.length < 4) return undefined;
  for (const passage of retrieve(view, [{ text: question, weight: 1 }], 3)) {
    if (!exclusion.test(passage.text)) continue;
    const shared = wanted.filter((t) => formsOf(t).some((f) => passage.bag.has(f))).length;
    if (shared / wanted.length >= 0.5) return passage;
  }
  return undefined;
}

/** An answer that says the sources do not answer the question is honest, not incomplete. */
function abstains(answer: string): boolean {
  return /\b(sources?|documents?) (do|does) not (answer|say|cover|mention)\b/i.test(answer);
}

/**
 * A bare "no": right when the sources contradict the question's statement. Word presence cannot show
 * that a relation between several things holds ("are both...", "the same..."), so a "no" to such a
 * question is only flagged when the statement is contradicted outright.
 */
function denial(statement: Judgment, question: string): Judgment {
  if (statement.status === 'contradicted') return flip(statement);
  if (statement.status === 'unsupported' || /\b(both|same|all|each|either|neither|also|too)\b/i.test(question))
    return { ...statement, status: 'supported', score: Math.max(statement.score, 0.6), reasons: [] };
  return flip(statement);
}

/**
 * A bare "yes": wrong when the sources contradict the question's statement. Word presence cannot
 * show that a relation holds, so a statement merely not found is no reason to flag the "yes".
 */
function assent(statement: Judgment): Judgment {
  return statement.status === 'unsupported'
    ? { ...statement, status: 'supported', score: Math.max(statement.score, 0.6), reasons: [] }
    : statement;
}

function flip(judgment: Judgment): Judgment {
  if (judgment.status === 'supported')
    return {
      ...judgment,
      status: 'contradicted',
      score: 0.1,
      reasons: ['The sources say the opposite.'],
      evidence: judgment.evidence.map((e) => ({ ...e, relation: 'contradicts' })),
    };
  if (judgment.status === 'contradicted')
    return {
      ...judgment,
      status: 'supported',
      score: 0.9,
      reasons: [],
      evidence: judgment.evidence.map((e) => ({ ...e, relation: 'supports' })),
    };
  return judgment;
}

function toEvidence(passage: ReadPassage, relation: Evidence['relation'], request: EngineRequest): Evidence {
  const source = request.sources[passage.source]!;
  return { source_id: source.source_id, start: passage.start, end: passage.end, text: passage.text.slice(0, evidenceTextLimit), relation };
}
