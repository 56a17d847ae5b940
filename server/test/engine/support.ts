// Shared fixtures for the engine tests: a small policy document and a helper to validate against it.
import assert from 'node:assert/strict';
import { createEngine, type EngineValidation } from '../../src/engine/index.js';
import { extractQuantities, type Quantity } from '../../src/engine/language/quantities.js';
import { assess } from '../../src/engine/validate.js';

export const engine = createEngine();

export const policy = [
  'Plans. The Basic plan includes 5 user seats and costs $12 per month. The Team plan includes 50 user seats and costs $40 per month.',
  'Refunds. Annual subscriptions can be refunded within 30 days of purchase. Monthly subscriptions are not refundable.',
  'Support. Email support is available on all plans. Phone support is available only on the Team plan.',
  'History. The company was founded in 2011 in Oslo by Ingrid Berg. It opened its Tartu office on 4 March 2019.',
].join('\n');

export const sources = [{ source_id: 'src_1', text: policy }];

export function validate(question: string, answer: string, text = policy): Promise<EngineValidation> {
  return engine.validate({ question, answer, sources: [{ source_id: 'src_1', text }] });
}

export function flagged(result: EngineValidation): string[] {
  return result.claims.filter((c) => c.status !== 'supported').map((c) => c.text);
}

/** The signal kinds each check returns for each claim of the answer (before the aggregator decides). */
export function signalsOf(question: string, answer: string, text = policy): string[][] {
  const assessment = assess({ question, answer, sources: [{ source_id: 'src_1', text }] });
  const claims = [...assessment.claims, ...(assessment.statement ? [assessment.statement] : [])];
  return claims.map((c) => c.signals.filter((s) => s.verdict !== 'note').map((s) => s.kind));
}

/** Whether any claim of the answer gets a signal of this kind. */
export function fires(kind: string, question: string, answer: string, text = policy): boolean {
  return signalsOf(question, answer, text).some((kinds) => kinds.includes(kind));
}

/** Answer-level signal kinds (does the answer answer the question at all). */
export function answerSignalsOf(question: string, answer: string, text = policy): string[] {
  return assess({ question, answer, sources: [{ source_id: 'src_1', text }] }).answerSignals.map((s) => s.kind);
}

/** The first quantity in a text (failing the test when there is none). */
export function one(text: string): Quantity {
  const [q] = extractQuantities(text);
  assert.ok(q, `no quantity in "${text}"`);
  return q;
}
