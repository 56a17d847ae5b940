// POST /api/v1/validate (sections 2.1, 4.2, 6.1): gathers the sources, runs the engine off the
// event loop in the mode asked, records the validation (history, counters, audit, and the tenant's
// webhook through the record's outbox), then answers with the mode's result. With an Idempotency-Key
// the validation's id is the key's bound id and its answer is recorded with it (decision S95).
import { createHash } from 'node:crypto';
import type { Mode, RequestSummary, SkippedSource, SourceUsed, ValidationRequest, ValidationResult } from '@groundcheck/contract';
import type { EngineSource, EngineThresholds } from '../../engine/index.js';
import { reviseValidation } from '../../engine/revise.js';
import { answerRisk } from '../../engine/risk.js';
import { verifierUnavailable } from '../../engine/verifier-note.js';
import type { Tenant } from '../../tenants/tenant.js';
import { actorOf } from '../audit/audit-trail.js';
import { type Caller, idFor, writtenByEarlierTry } from '../call-context.js';
import type { Extractor } from '../sources/extraction-cache.js';
import type { ClaimVerification } from './claim-verification.js';
import type { EnginePool, EngineResults } from './engine-pool.js';
import { explained } from './skip-reasons.js';
import { fetchUrlSources } from './url-sources.js';
import { ValidationRecorder } from './validation-recorder.js';

/** A source's text with how the result names it. */
export interface GatheredSource extends Omit<SourceUsed, 'source_id'> {
  text: string;
}

/** Source groups the caller may use, read after the access check (decision row 28); the rest skipped. */
export type SourceGroupRetrieval = (
  caller: Caller,
  groupIds: readonly string[],
  question: string,
) => Promise<{ sources: GatheredSource[]; skipped: SkippedSource[] }>;

export interface ValidationServiceDependencies {
  engine: EnginePool;
  recorder: ValidationRecorder;
  retrieveGroups: SourceGroupRetrieval;
  /** Text from a fetched URL's bytes, within the parser's budget. */
  extract: Extractor;
  verification: ClaimVerification;
  /** The tenant's thresholds for a new validation: the tenant file's, with the operating point applied to it (S113). */
  thresholds?: (tenant: Tenant) => Promise<EngineThresholds>;
}

export class ValidationService {
  constructor(private readonly deps: ValidationServiceDependencies) {}

  async validate(ctx: Caller, request: ValidationRequest): Promise<ValidationResult> {
    const started = performance.now();
    // A retry that took over the key of a try that died: what that try recorded, finished, is the answer.
    const resumed = await writtenByEarlierTry(ctx, () => this.resumed(ctx));
    if (resumed) return resumed;
    const { sources, skipped } = await this.gather(ctx, request);
    const engineSources = sources.map((source, i) => ({ source_id: `src_${i + 1}`, text: source.text }));
    const outcome = await this.runEngine(ctx, request, engineSources);
    // A client that went away while the engine ran gets no record: nothing is written for nobody.
    ctx.abortSignal.throwIfAborted();
    const createdAt = ctx.clock.now();
    const validationId = idFor(ctx, 'val', createdAt);
    const used: SourceUsed[] = sources.map(({ text: _text, ...source }, i) => ({ source_id: `src_${i + 1}`, ...source }));
    const output = request.mode === 'generate' ? (outcome as EngineResults['generate']).answer : request.chatbot_response;
    const common = {
      validation_id: validationId,
      created_at: createdAt.toISOString(),
      question: request.question,
      claims: outcome.claims.map((claim) => ({ ...claim, verifier: claim.verifier ?? 'deterministic' })),
      findings: outcome.findings,
      issues: outcome.issues,
      issue_count: outcome.issue_count,
      severity: outcome.severity,
      confidence_level: outcome.confidence_level,
      confidence_score: outcome.confidence_score,
      source_conflict_count: outcome.source_conflict_count,
      sources: used,
      metadata: {
        source_access_filtered: skipped.some((source) => source.kind === 'source_group' && source.reason === 'access_denied'),
        skipped_sources: skipped.map(explained),
        engine: { ...outcome.engine, ...this.deps.verification.identityFor(ctx.tenant) },
        duration_ms: Math.round(performance.now() - started),
      },
      review: ValidationRecorder.reviewOf(ctx.tenant, outcome.issues.length),
      rate_limit: { limit: ctx.rateLimit?.limit ?? 0, remaining: ctx.rateLimit?.remaining ?? 0, reset: ctx.rateLimit?.reset ?? 0 },
    };
    const result = withModePayload(common, request, outcome, output);
    const recorded = await this.deps.recorder.record(
      ctx.tenant,
      {
        validationId,
        mode: request.mode,
        createdAt,
        question: request.question,
        user: actorOf(ctx.principal),
        output,
        claims: common.claims,
        severity: outcome.severity,
        confidenceLevel: outcome.confidence_level,
        issues: outcome.issues,
        findings: outcome.findings,
        risk: answerRisk(outcome),
        sourceConflictCount: outcome.source_conflict_count,
        sourceGroups: [...new Set(used.flatMap((source) => (source.group_id ? [source.group_id] : [])))],
        sources: used,
        requestSummary: requestSummaryOf(request),
        keyId: ctx.keyed?.keyId ?? null,
      },
      ctx.log,
      ctx.keyed && { keyId: ctx.keyed.keyId, body: result },
    );
    if (recorded) return result;
    // Another try of this key recorded it first (one that lost its lease while it was slow): its answer stands.
    const first = await this.resumed(ctx);
    if (!first) throw new Error(`validation ${validationId} exists without the answer of its key`);
    return first;
  }

  /** The answer an earlier try of the call's Idempotency-Key recorded, its outbox completed; null when none did. */
  private async resumed(ctx: Caller): Promise<ValidationResult | null> {
    if (!ctx.keyed) return null;
    return (await this.deps.recorder.outbox.resume(ctx.tenant, ctx.keyed.keyId, ctx.log)) as ValidationResult | null;
  }

  /**
   * The engine's result for the request, with the tenant's model-backed verifier: the entailment model
   * inside the engine's run, or the judge on the uncertain claims after it (and, for `generate`, the
   * model's own answer, checked like any other).
   */
  private async runEngine(ctx: Caller, request: ValidationRequest, sources: EngineSource[]): Promise<EngineResults[Mode]> {
    const { verification, engine } = this.deps;
    const thresholds = (await this.deps.thresholds?.(ctx.tenant)) ?? ctx.tenant.engineThresholds;
    const base = { question: request.question, sources, thresholds };
    const entailment = verification.entailmentFor(ctx.tenant);
    if (request.mode === 'generate') {
      const written = await verification.writeAnswer(ctx, request.question, sources);
      if (written && 'answer' in written) {
        const checked = { ...base, answer: written.answer };
        const validation = await engine.run('validate', checked, ctx.abortSignal, entailment);
        return { ...(await verification.judgeUncertain(ctx, checked, validation)), answer: written.answer };
      }
      const generated = await engine.run('generate', base, ctx.abortSignal, entailment);
      return written ? reviseValidation(generated, [], [verifierUnavailable('openai', written.failure)], base) : generated;
    }
    const checked = { ...base, answer: request.chatbot_response };
    const result = await engine.run(request.mode, checked, ctx.abortSignal, entailment);
    return verification.judgeUncertain(ctx, checked, result);
  }

  private async gather(ctx: Caller, request: ValidationRequest): Promise<{ sources: GatheredSource[]; skipped: SkippedSource[] }> {
    const [groups, urls] = await Promise.all([
      request.source_groups?.length ? this.deps.retrieveGroups(ctx, request.source_groups, request.question) : { sources: [], skipped: [] },
      request.urls?.length ? fetchUrlSources(ctx.tenant, request.urls, this.deps.extract, ctx.abortSignal) : { fetched: [], skipped: [] },
    ]);
    const sources: GatheredSource[] = [
      ...groups.sources,
      ...urls.fetched.map(({ url, text, sha256 }) => ({ kind: 'url' as const, reference: url, sha256, text })),
    ];
    if (request.inline_text) {
      sources.push({
        kind: 'inline_text',
        reference: 'inline_text',
        sha256: createHash('sha256').update(request.inline_text).digest('hex'),
        text: request.inline_text,
      });
    }
    return { sources, skipped: [...groups.skipped, ...urls.skipped] };
  }
}

/** The result with the payload of its mode. */
function withModePayload(
  common: Omit<ValidationResult, 'mode' | 'chatbot_response' | 'answer' | 'corrected_response' | 'corrections'>,
  request: ValidationRequest,
  outcome: EngineResults[Mode],
  output: string,
): ValidationResult {
  if (request.mode === 'generate') return { ...common, mode: 'generate', answer: output };
  if (request.mode === 'validate_and_fix') {
    const { corrected_response, corrections } = outcome as EngineResults['validate_and_fix'];
    return { ...common, mode: 'validate_and_fix', chatbot_response: request.chatbot_response, corrected_response, corrections };
  }
  return { ...common, mode: 'validate', chatbot_response: request.chatbot_response };
}

/** What the audit trail keeps of the request: sizes and counts, never content. */
function requestSummaryOf(request: ValidationRequest): RequestSummary {
  const answer = request.mode === 'generate' ? undefined : request.chatbot_response;
  return {
    question_chars: request.question.length,
    response_chars: answer?.length ?? 0,
    source_group_count: request.source_groups?.length ?? 0,
    url_count: request.urls?.length ?? 0,
    inline_text_chars: request.inline_text?.length ?? 0,
  };
}
