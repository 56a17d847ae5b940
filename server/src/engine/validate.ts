// validate: split the answer into claims, read each against its evidence, run every check, and let
// the aggregator decide each claim; then summarise. `assess` (the checks' signals) and `decide` (the
// aggregator) are separate so that evaluation can fit and score the aggregator on the same signals.

import { aggregate, type Judgment } from './aggregate/aggregator.js';
import { type AggregatorModel, committedEntailmentModel, committedModel } from './aggregate/model.js';
import { type ClaimVerdict, summarise } from './aggregate/summary.js';
import { abstains } from './checks/answer-kind.js';
import type { Signal } from './checks/check.js';
import { answerChecks, claimChecks } from './checks/index.js';
import { type AnswerContext, type ClaimReading, readClaim } from './claims/reading.js';
import { type ClaimSpan, splitAnswer } from './claims/split.js';
import { entailmentSignals, usedEntailment, withEntailmentWeight } from './entailment.js';
import { stemsOf } from './evidence/binding.js';
import type { ReadPassage, SourceView } from './evidence/retrieval.js';
import { viewSources } from './evidence/retrieval.js';
import { extractQuantities } from './language/quantities.js';
import { formBag, tokenize } from './language/tokens.js';
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

export interface AssessedClaim {
  span: ClaimSpan;
  reading: ClaimReading;
  signals: Signal[];
}

/** Every check's signals for one request, before the aggregator decides. */
export interface Assessment {
  request: EngineRequest;
  context: AnswerContext;
  claims: AssessedClaim[];
  /** A bare "yes" or "no": the question read as a statement, whose verdict the answer affirms or denies. */
  statement: (AssessedClaim & { polarity: 'yes' | 'no' }) | undefined;
  answerSignals: Signal[];
}

export interface ValidationDetail {
  result: EngineValidation;
  spans: ClaimSpan[];
  judgments: Judgment[];
  view: SourceView;
}

export function thresholdsOf(request: EngineRequest): EngineThresholds {
  return { ...defaultThresholds, ...request.thresholds };
}

function runChecks(reading: ClaimReading, request: EngineRequest): Signal[] {
  return [...claimChecks.flatMap((check) => check.run(reading)), ...entailmentSignals(reading, request.entailment)];
}

export function assess(request: EngineRequest): Assessment {
  const answer = request.answer ?? '';
  const split = splitAnswer(answer);
  const spans = split.claims;
  const view = viewSources(request.sources, [request.question, ...spans.map((c) => c.text)]);
  const questionTokens = tokenize(request.question);
  const context: AnswerContext = {
    question: request.question,
    questionBag: formBag(questionTokens),
    questionStems: stemsOf(questionTokens),
    questionQuantities: extractQuantities(request.question),
    answer,
    answerQuantities: extractQuantities(answer),
    polarity: split.polarity,
    spans,
    view,
  };
  const claims = spans.map((span, index) => {
    const reading = readClaim({ text: span.text, previous: spans[index - 1]?.text, offset: span.start, index }, context);
    return { span, reading, signals: runChecks(reading, request) };
  });
  let statement: Assessment['statement'];
  if (spans.length === 0 && split.polarity && split.polaritySpan) {
    const [start, end] = split.polaritySpan;
    const reading = readClaim(
      { text: request.question.replace(/\?\s*$/, ''), previous: undefined, offset: -1, index: -1, loose: true },
      { ...context, questionBag: new Set(), questionStems: new Set(), questionQuantities: [] },
    );
    const span = { text: answer.slice(start, end), start, end, sentenceStart: start, sentenceEnd: end };
    statement = { span, reading, signals: runChecks(reading, request), polarity: split.polarity };
  }
  const answerSignals = answerChecks.flatMap((check) => check.run(context));
  return { request, context, claims, statement, answerSignals };
}

/** Decided by `fitted`, or by the committed model that matches the request: with the entailment model's scores or without. */
export function decide(assessment: Assessment, fitted?: AggregatorModel): ValidationDetail {
  const { request, context } = assessment;
  const model = withEntailmentWeight(fitted ?? (request.entailment ? committedEntailmentModel : committedModel), request);
  const thresholds = thresholdsOf(request);
  const judge = (c: AssessedClaim) => aggregate(c.signals, c.reading.bound, model, thresholds.supportedScore);
  const spans = assessment.claims.map((c) => c.span);
  const judgments = assessment.claims.map(judge);
  if (assessment.statement) {
    const statement = judge(assessment.statement);
    spans.push(assessment.statement.span);
    // Whether a check found the sources speaking against the statement, even below the flagging point.
    const against = assessment.statement.signals.some((s) => s.verdict === 'contradicted' && (model.weights[s.kind] ?? 0) > 0);
    judgments.push(assessment.statement.polarity === 'yes' ? assent(statement) : denial(statement, against, request.question));
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
    const signals = (assessment.claims[i] ?? assessment.statement)?.signals ?? [];
    if (usedEntailment(signals)) claim.verifier = 'onnx';
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
  } else if (spans.length === 0 && !abstains(context.answer)) {
    extra.push({
      category: 'incomplete_answer',
      status: 'warning',
      severity: 'low',
      claim_index: null,
      title: 'Nothing to check',
      description: 'The answer makes no factual claim that could be checked against the sources.',
    });
  } else {
    for (const s of assessment.answerSignals.filter((a) => model.answerKinds.includes(a.kind)))
      extra.push({
        category: 'incomplete_answer',
        status: 'warning',
        severity: thresholds.unsupportedSeverity,
        claim_index: null,
        title: 'Does not answer the question',
        description: s.reason,
      });
  }
  const summary = summarise(verdicts, extra, thresholds);
  return {
    result: { claims: verdicts.map((v) => v.claim), ...summary, engine: { ...deterministicEngine } },
    spans,
    judgments,
    view: context.view,
  };
}

export function validateDetailed(request: EngineRequest, model?: AggregatorModel): ValidationDetail {
  return decide(assess(request), model);
}

/**
 * A bare "no": right when the sources speak against the question's statement, even if not strongly
 * enough to flag it. Word presence cannot show that a relation between several things holds ("are
 * both...", "the same..."), so a "no" to such a question is only flagged when the statement is
 * supported and nothing speaks against it.
 */
function denial(statement: Judgment, against: boolean, question: string): Judgment {
  if (statement.status === 'contradicted') return flip(statement);
  if (against) return { ...statement, status: 'supported', score: Math.max(statement.score, 0.6), reasons: [] };
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
