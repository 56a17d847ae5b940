// The model-backed verifiers around the engine, per tenant (README: Model-backed verifiers). With
// `openai`, the claims the checks leave uncertain (a band of their score) go to an OpenAI-compatible
// judge, whose verdict is taken only when the evidence it quotes is in the sources; in `generate`
// mode the model writes the answer from the sources, and the answer is then checked like any other.
// With `onnx`, the engine's worker adds a local entailment model's signal. Any failure keeps the
// checks' verdicts and adds a `verifier_unavailable` finding: never an error for the caller.
import type { Claim, Evidence } from '@groundcheck/contract';
import type { EngineRequest, EngineSource, EngineValidation } from '../../engine/index.js';
import { type ClaimRevision, reviseValidation } from '../../engine/revise.js';
import { verifierUnavailable } from '../../engine/verifier-note.js';
import type { Tenant } from '../../tenants/tenant.js';
import {
  type ClaimJudge,
  type ClaimToJudge,
  createClaimJudge,
  type JudgeFailure,
  type JudgeVerdict,
} from '../../verifiers/judge/claim-judge.js';
import type { VerifierChoice, VerifierDeployment } from '../../verifiers/verifier-config.js';
import type { Caller } from '../call-context.js';
import type { EngineTask } from './engine-pool.js';

/** What a verdict of the judge makes of a claim's score: it decided, so the score says how. */
const judgedScore = { supported: 0.9, unsupported: 0.3, contradicted: 0.1 } as const;
const evidenceTextLimit = 1000;

export interface VerifierIdentity {
  verifier: VerifierChoice;
  verifier_model?: string;
}

export class ClaimVerification {
  private readonly judge: ClaimJudge | null;

  constructor(
    private readonly deployment: VerifierDeployment,
    judge: ClaimJudge | null = deployment.judge ? createClaimJudge(deployment.judge) : null,
  ) {
    this.judge = judge;
  }

  /** The tenant's verifier: its own choice, or the deployment's default. */
  choiceFor(tenant: Tenant): VerifierChoice {
    return tenant.verifier.choice ?? this.deployment.defaultVerifier;
  }

  /** What `metadata.engine` reports beside the engine's own identity. */
  identityFor(tenant: Tenant): VerifierIdentity {
    const verifier = this.choiceFor(tenant);
    if (verifier === 'openai' && this.deployment.judge) return { verifier, verifier_model: this.deployment.judge.model };
    if (verifier === 'onnx') return { verifier, verifier_model: 'local' };
    return { verifier };
  }

  /** The entailment model the engine's worker consults for this tenant, if any. */
  entailmentFor(tenant: Tenant): EngineTask['entailment'] {
    if (this.choiceFor(tenant) !== 'onnx') return undefined;
    return { modelDir: this.deployment.modelDir, weight: tenant.verifier.entailmentWeight };
  }

  /** The answer the model writes from the sources for `generate`, or null when the tenant has no judge or it failed. */
  async writeAnswer(ctx: Caller, question: string, sources: EngineSource[]): Promise<{ answer: string } | { failure: string } | null> {
    if (this.choiceFor(ctx.tenant) !== 'openai' || !this.judge) return null;
    const passages = sources.map(({ source_id, text }) => ({ source_id, text }));
    const written = await this.judge.writeAnswer({ tenantId: ctx.tenant.customerId, question, passages }, ctx.abortSignal);
    if ('failure' in written) {
      ctx.log.warn({ reason: written.failure }, 'the model did not write the answer; the engine wrote it');
      return { failure: written.failure };
    }
    return { answer: written.answer };
  }

  /** The result with the judge's verdicts on the uncertain claims, for tenants that use the judge. */
  async judgeUncertain<R extends EngineValidation>(ctx: Caller, request: EngineRequest, result: R): Promise<R> {
    if (this.choiceFor(ctx.tenant) !== 'openai' || !this.judge) return result;
    const { low, high } = ctx.tenant.verifier.judgeBand;
    const uncertain = result.claims.flatMap((claim, index) =>
      claim.score >= low && claim.score <= high ? [toJudge(claim, index, request.sources)] : [],
    );
    if (uncertain.length === 0) return result;
    const outcome = await this.judge.judgeClaims(
      { tenantId: ctx.tenant.customerId, question: request.question, claims: uncertain, sources: request.sources },
      ctx.abortSignal,
    );
    ctx.log.info(
      { judged: outcome.verdicts.length, failed: outcome.failures.length, calls: outcome.usage.calls, ms: outcome.usage.ms },
      'claims judged',
    );
    const revisions = outcome.verdicts.map((verdict) => revisionOf(verdict, result.claims[verdict.index]!));
    const notes = outcome.failures.length > 0 ? [verifierUnavailable('openai', failureSummary(outcome.failures))] : [];
    return reviseValidation(result, revisions, notes, request);
  }
}

/** A claim as the judge reads it: with the passages the checks bound to it, or else the sources. */
function toJudge(claim: Claim, index: number, sources: EngineSource[]): ClaimToJudge {
  const bound = claim.evidence.map(({ source_id, text }) => ({ source_id, text }));
  return { index, text: claim.text, passages: bound.length > 0 ? bound : sources.map(({ source_id, text }) => ({ source_id, text })) };
}

function revisionOf(verdict: JudgeVerdict, claim: Claim): ClaimRevision {
  const quoted: Evidence[] = verdict.quote
    ? [
        {
          source_id: verdict.quote.source_id,
          start: verdict.quote.start,
          end: verdict.quote.end,
          text: verdict.quote.text.slice(0, evidenceTextLimit),
          relation: verdict.status === 'contradicted' ? 'contradicts' : 'supports',
        },
      ]
    : claim.evidence.map((e) => ({ ...e, relation: 'related' as const }));
  return {
    index: verdict.index,
    status: verdict.status,
    score: judgedScore[verdict.status],
    evidence: quoted,
    reason: verdict.reason,
    verifier: 'openai',
  };
}

/** "2 claims: timeout; 1 claim: rate_limited": why the judge did not decide, without any provider text. */
function failureSummary(failures: JudgeFailure[]): string {
  const counts = new Map<string, number>();
  for (const { reason } of failures) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  return [...counts].map(([reason, n]) => `${n} ${n === 1 ? 'claim' : 'claims'}: ${reason}`).join('; ');
}
