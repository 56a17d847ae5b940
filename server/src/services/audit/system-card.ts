// POST /api/v1/system-card (decision 8): what the service does and does not do, how it validates,
// what the audit trail records and never records, and the tenant's retention and region.
import { readFileSync } from 'node:fs';
import type { SystemCard } from '@groundcheck/contract';
import { deterministicEngine } from '../../engine/version.js';
import type { Caller } from '../call-context.js';
import { enterpriseSchemaVersion } from './audit-export.js';
import { auditEventSchemaVersion } from './audit-trail.js';

const serverPackage = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };

// The validation engine's identity, the same constant every result reports in `metadata.engine`.
const validationMethod: Omit<SystemCard['validation_method'], 'verifier'> = {
  name: deterministicEngine.method,
  version: deterministicEngine.version,
  description:
    'Claims are located in the sources by BM25 ranking; numbers, dates, named entities, negation, quantifiers and the subject they belong to are checked strictly, wording leniently.',
};

type VerifierName = SystemCard['validation_method']['verifier']['name'];

/** What each verifier does with a tenant's claims (README: Model-backed verifiers), and whether text leaves the deployment. */
const verifierDescriptions: Record<VerifierName, string> = {
  none: 'The checks alone decide each claim and give its score. No text leaves the deployment.',
  onnx: "A local entailment model scores each claim against its passages, beside the checks; the shipped model moves claims' scores and the answer's confidence and never a claim's status. No text leaves the deployment.",
  openai:
    "Claims the checks leave uncertain go to an OpenAI-compatible model at the operator's endpoint, with the question and their passages; its verdict decides a claim when the passage it quotes is in the sources. In mode generate it writes the answer. That text leaves the deployment for the endpoint.",
};

// Section 2.4: what the audit trail holds, and what it never holds.
const auditTrailRecords = [
  'event kind',
  'sequence number and hash chain',
  'actor id, type and role',
  'timestamp',
  'review notes',
  'review corrections',
  'external references of handoffs',
  'mode',
  'request sizes',
  'source groups',
  'source file references and SHA-256 hashes',
  'confidence level',
  'issue count',
  'operating points applied, with the figures they rest on',
];
const auditTrailNeverRecords = [
  'source content',
  'question and answer text',
  'credentials',
  'tokens',
  'API keys',
  'passwords',
  'payment data',
  "external systems' logs",
  'technical runtime logs',
];

export class SystemCardService {
  constructor(
    private readonly settings: { historyTtlDays: number },
    /** The tenant's verifier, as results report it in `metadata.engine` (decision S118). */
    private readonly verifierOf: (tenant: Caller['tenant']) => { verifier: VerifierName; verifier_model?: string },
    /** The tenant's operating point in force (decision S113); the tenant file's alone without it. */
    private readonly operatingPoint?: (tenant: Caller['tenant']) => Promise<SystemCard['operating_point']>,
  ) {}

  async describe(ctx: Caller): Promise<SystemCard> {
    const { tenant } = ctx;
    return {
      schema_version: '1.0',
      service: { name: 'Groundcheck', version: serverPackage.version },
      generated_at: ctx.clock.now().toISOString(),
      purpose: 'Checks AI-generated answers against the source material a tenant provides and records the review decisions taken on them.',
      capabilities: [
        'Splits an answer into claims and checks each against the sources, with evidence spans (mode validate).',
        'Generates an answer from the sources and checks it (mode generate).',
        'Corrects contradicted claims where a source states the right value (mode validate_and_fix).',
        'Records validations in history and review decisions in an append-only, hash-chained audit trail.',
        'Exports the audit trail as JSON or CSV, with pseudonymized actors in profile enterprise_v1.',
        "Fits the point where claims are flagged (supported_score) to the tenant's own decided reviews, and applies it when an admin asks or, in calibration mode apply, by itself, with an audit event.",
      ],
      not_done: [
        "Does not decide whether an answer may be shown to an end user; reviewers and the tenant's workflow do.",
        'Does not check sources for truth; it checks answers against the sources given.',
        'Does not train on tenant data.',
        'Does not keep technical runtime logs in the audit trail; they stay in the platform logging service.',
      ],
      validation_method: { ...validationMethod, verifier: this.verifierCard(tenant) },
      // The point new validations use: one fitted to the tenant's reviews and applied, or the file's (S106, S113).
      operating_point: (await this.operatingPoint?.(tenant)) ?? {
        supported_score: tenant.engineThresholds.supportedScore,
        fitted_to_tenant: false,
        applied_at: null,
        calibration: tenant.calibration.mode,
      },
      known_limitations: [
        'Paraphrases with little word overlap may be reported as unsupported.',
        'Only English text is supported.',
        'The audit hash chain shows changes, removals and reordering, but not a rewrite of the whole chain; keep the hashes of exports you have received to anchor it.',
        'After retention removes old events, chain verification starts at the oldest retained event.',
      ],
      data_handling: {
        audit_trail_records: auditTrailRecords,
        audit_trail_never_records: auditTrailNeverRecords,
        history_retention_days: this.settings.historyTtlDays,
        audit_retention_days: tenant.auditRetentionDays,
      },
      region: tenant.region,
      schema_versions: { api: 'v1', audit_event: auditEventSchemaVersion, audit_export: enterpriseSchemaVersion, webhook: '1' },
    };
  }

  private verifierCard(tenant: Caller['tenant']): SystemCard['validation_method']['verifier'] {
    const { verifier, verifier_model } = this.verifierOf(tenant);
    return { name: verifier, ...(verifier_model && { model: verifier_model }), description: verifierDescriptions[verifier] };
  }
}
