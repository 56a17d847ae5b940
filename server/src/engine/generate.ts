// generate: an extractive answer, the passages that best answer the question quoted with their
// source ids, then validated like any answer. When no passage covers the question, it says so.
import { retrieve, viewSources } from './evidence/retrieval.js';
import { formsOf, tokenize } from './language/tokens.js';
import type { EngineRequest, GenerateResult } from './types.js';
import { noAnswer, validateDetailed } from './validate.js';

/** Share of the question's content words a passage must hold to count as answering it. */
const answerCoverage = 0.6;

export function generateAnswer(request: EngineRequest): GenerateResult {
  const view = viewSources(request.sources, [request.question]);
  const wanted = tokenize(request.question).filter((t) => t.content);
  const ranked = retrieve(view, [{ text: request.question, weight: 1 }], 5);
  const covering = ranked.filter(
    (p) => wanted.length > 0 && wanted.filter((t) => formsOf(t).some((f) => p.bag.has(f))).length / wanted.length >= answerCoverage,
  );
  const chosen = covering.slice(0, 2).sort((a, b) => a.source - b.source || a.start - b.start);
  const answer = chosen.length === 0 ? noAnswer : chosen.map((p) => `${p.text} [${request.sources[p.source]!.source_id}]`).join(' ');
  const { result } = validateDetailed({ ...request, answer });
  return { ...result, answer };
}
