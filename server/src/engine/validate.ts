// validate: split the answer into claims, judge each against the sources, summarise.
import { splitAnswer, type ClaimSpan } from './claims.js';
import { viewSources, type ReadPassage, type SourceView } from './evidence.js';
import { summarise, type ClaimVerdict } from './findings.js';
import { checkOrdering } from './comparison.js';
import { judgeClaim, type JudgeContext, type Judgment } from './judge.js';
import { extractQuantities } from './quantities.js';
import { formBag, tokenize } from './tokens.js';
import { defaultThresholds, type Claim, type EngineRequest, type EngineThresholds, type EngineValidation, type Evidence, type Finding } from './types.js';
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
    questionQuantities: extractQuantities(request.question),
    answerQuantities: extractQuantities(answer),
    view,
  };
  const spans = [...split.claims];
  const judgments = spans.map((span, i) => judgeClaim({ text: span.text, previous: spans[i - 1]?.text, offset: span.start }, context));
  // A bare "yes" or "no" is checked as the question's own statement.
  if (spans.length === 0 && split.polarity && split.polaritySpan) {
    const [start, end] = split.polaritySpan;
    const statement = judgeClaim({ text: request.question.replace(/\?\s*$/, ''), previous: undefined, offset: -1, loose: true }, { ...context, questionBag: new Set(), questionQuantities: [] });
    spans.push({ text: answer.slice(start, end), start, end, sentenceStart: start, sentenceEnd: end });
    judgments.push(split.polarity === 'yes' ? statement : denial(statement, request.question));
  }
  // An ordering question decided by dates: the claim that names the wrong option is contradicted.
  const ordering = spans.length > 0 ? checkOrdering(request.question, answer, view) : undefined;
  if (ordering && ordering.chosen !== ordering.expected) {
    const index = Math.max(0, spans.findIndex((s) => s.text.toLowerCase().includes(ordering.chosen.toLowerCase())));
    const passages = ordering.passageIds.map((id) => ({ passage: view.read(id, 0), relation: 'contradicts' as const }));
    judgments[index] = { ...judgments[index]!, status: 'contradicted', score: 0.1, evidence: passages, reasons: [`By the dates in the sources, the answer is ${ordering.expected}, not ${ordering.chosen}.`], replacement: undefined };
  }
  const verdicts: ClaimVerdict[] = spans.map((span, i) => {
    const judgment = judgments[i]!;
    const claim: Claim = { text: span.text, start: span.start, end: span.end, status: judgment.status, score: judgment.score, evidence: judgment.evidence.map(({ passage, relation }) => toEvidence(passage, relation, request)) };
    return { claim, reasons: judgment.reasons, conflictingSources: judgment.conflictingSources };
  });
  const extra: Finding[] = [];
  if (request.sources.every((s) => s.text.trim() === '')) {
    extra.push({ category: 'source_unavailable', status: 'failed', severity: 'high', claim_index: null, title: 'No source text', description: 'None of the sources holds any text to check the answer against.' });
  } else if (spans.length === 0 && !abstains(answer)) {
    extra.push({ category: 'incomplete_answer', status: 'warning', severity: 'low', claim_index: null, title: 'Nothing to check', description: 'The answer makes no factual claim that could be checked against the sources.' });
  }
  const summary = summarise(verdicts, extra, thresholds);
  return { result: { claims: verdicts.map((v) => v.claim), ...summary, engine: { ...deterministicEngine } }, spans, judgments, view };
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
  if (statement.status === 'unsupported' || /\b(both|same|all|each|either|neither|also|too)\b/i.test(question)) return { ...statement, status: 'supported', score: Math.max(statement.score, 0.6), reasons: [] };
  return flip(statement);
}

function flip(judgment: Judgment): Judgment {
  if (judgment.status === 'supported') return { ...judgment, status: 'contradicted', score: 0.1, reasons: ['The sources say the opposite.'], evidence: judgment.evidence.map((e) => ({ ...e, relation: 'contradicts' })) };
  if (judgment.status === 'contradicted') return { ...judgment, status: 'supported', score: 0.9, reasons: [], evidence: judgment.evidence.map((e) => ({ ...e, relation: 'supports' })) };
  return judgment;
}

function toEvidence(passage: ReadPassage, relation: Evidence['relation'], request: EngineRequest): Evidence {
  const source = request.sources[passage.source]!;
  return { source_id: source.source_id, start: passage.start, end: passage.end, text: passage.text.slice(0, evidenceTextLimit), relation };
}
