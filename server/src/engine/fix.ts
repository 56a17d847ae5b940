// validate_and_fix: contradicted figures are replaced in place by the sources' value, a claim the
// sources state more narrowly by their own sentence, other unsupported or contradicted claims are
// removed; every change is listed. If the corrected text still fails validation, the fix falls back
// to removing every flagged claim, so that the corrected response, validated again, has no issues. A correction that keeps nothing of the answer has fixed
// nothing: it says the answer could not be confirmed, and its findings stay open.

import type { Judgment } from './aggregate/aggregator.js';
import type { ClaimSpan } from './claims/split.js';
import { tokenize } from './language/tokens.js';
import { isCommon } from './language/wording.js';
import type { Correction, EngineRequest, FixResult, UserCorrection } from './types.js';
import { validateDetailed } from './validate.js';

/** The corrected response when nothing of the answer is left: what is known, not that the sources lack an answer. */
export const unconfirmed = 'The answer could not be confirmed from the sources.';

interface Edit {
  claimIndex: number;
  start: number;
  end: number;
  text: string;
  action: 'replace' | 'remove';
}

export function fixAnswer(request: EngineRequest): FixResult {
  const answer = request.answer ?? '';
  const first = validateDetailed(request);
  const flagged = first.judgments.map((j, i) => (j.status === 'supported' ? -1 : i)).filter((i) => i >= 0);
  if (flagged.length === 0) return { ...first.result, corrected_response: answer, corrections: [], user_corrections: [] };
  for (const allowReplace of [true, false]) {
    const edits = flagged.map((i) => editFor(answer, first.spans, first.judgments[i]!, i, allowReplace));
    const corrected = apply(answer, edits) || unconfirmed;
    const again = validateDetailed({ ...request, answer: corrected });
    if (again.result.issue_count === 0) return finish(first.result, answer, corrected, edits);
  }
  // Last resort: keep only what was supported, sentence by sentence; remove what still fails.
  let kept = first.spans.filter((_, i) => !flagged.includes(i));
  for (let round = 0; round < 3; round++) {
    const corrected = kept.map((s) => terminate(s.text)).join(' ');
    const again = validateDetailed({ ...request, answer: corrected });
    if (again.result.issue_count === 0 || kept.length === 0) break;
    const failing = new Set(again.judgments.map((j, i) => (j.status === 'supported' ? '' : again.spans[i]!.text)));
    kept = kept.filter((s) => !failing.has(s.text));
  }
  const edits: Edit[] = first.spans.flatMap((span, i): Edit[] =>
    kept.includes(span) ? [] : [{ claimIndex: i, start: span.start, end: span.end, text: '', action: 'remove' }],
  );
  return finish(first.result, answer, kept.map((s) => terminate(s.text)).join(' ') || unconfirmed, edits);
}

function editFor(answer: string, spans: ClaimSpan[], judgment: Judgment, index: number, allowReplace: boolean): Edit {
  const span = spans[index]!;
  if (allowReplace && judgment.status === 'contradicted' && judgment.replacement) {
    const { start, end, text } = judgment.replacement;
    return { claimIndex: index, start: span.start + start, end: span.start + end, text, action: 'replace' };
  }
  if (allowReplace && judgment.restatement) {
    const before = answer.slice(0, span.start).trimEnd();
    const text = before === '' || /[.!?]$/.test(before) ? judgment.restatement : lowerFirst(judgment.restatement);
    return { claimIndex: index, start: span.start, end: span.end, text, action: 'replace' };
  }
  // Remove the claim with the separator that follows it, or the whole sentence when it is all of it.
  const soleClause = spans.filter((s) => s.sentenceStart === span.sentenceStart).length === 1;
  if (soleClause) {
    let end = span.sentenceEnd;
    while (end < answer.length && /\s/.test(answer[end]!)) end++;
    return { claimIndex: index, start: span.sentenceStart, end, text: '', action: 'remove' };
  }
  let end = span.end;
  while (end < answer.length && /[\s,;—–-]/.test(answer[end]!)) end++;
  return { claimIndex: index, start: span.start, end: end >= span.sentenceEnd ? span.end : end, text: '', action: 'remove' };
}

function apply(answer: string, edits: Edit[]): string {
  let out = answer;
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out
    .replace(/\s+([,.;!?])/g, '$1')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

/**
 * A sentence's first letter in lower case, to follow on mid-sentence. The tagger reads most capitals
 * opening a sentence as names, so only an everyday word is lowered: "Children", not "Fairhaven" or "FIDO2".
 */
function lowerFirst(text: string): string {
  const first = tokenize(text)[0];
  if (!first || (first.pos === 'PROPN' && !isCommon(first)) || /^\p{Lu}{2}/u.test(first.text)) return text;
  return text.charAt(0).toLowerCase() + text.slice(1);
}

function terminate(text: string): string {
  const sentence = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

function finish(
  result: FixResult | ReturnType<typeof validateDetailed>['result'],
  answer: string,
  corrected: string,
  edits: Edit[],
): FixResult {
  // Nothing left is no fix: the findings stay open, for a person to answer.
  const fixedClaims = new Set(corrected === unconfirmed ? [] : edits.map((e) => e.claimIndex));
  const findings = result.findings.map((f) =>
    f.claim_index !== null && f.claim_index !== undefined && fixedClaims.has(f.claim_index) && f.category !== 'source_conflict'
      ? { ...f, status: 'fixed' as const }
      : f,
  );
  const issues = findings.filter((f) => f.status === 'failed' || f.status === 'warning').map((f) => `${f.title}: ${f.description}`);
  const corrections: Correction[] = edits.map((e) => ({
    claim_index: e.claimIndex,
    start: e.start,
    end: e.end,
    original_text: answer.slice(e.start, e.end),
    corrected_text: e.text,
  }));
  const user_corrections: UserCorrection[] = edits.map((e) => ({
    element: `claim:${e.claimIndex}`,
    action: e.action,
    note:
      e.action === 'replace'
        ? `Replaced "${answer.slice(e.start, e.end)}" with the sources' "${e.text}".`
        : `Removed "${answer.slice(e.start, e.end).trim()}": the sources do not support it.`,
  }));
  return { ...result, findings, issues, issue_count: issues.length, corrected_response: corrected, corrections, user_corrections };
}
