// The tenant's configuration as the account export shows it: what the operator set, with every
// secret left out (API key hashes, bootstrap password hashes, the webhook's token and signing
// secret, endpoint credentials, the payment provider's customer id). A flag says whether each is set.
import type { Features, Role, Severity } from '@groundcheck/contract';
import type { Tenant } from '../../tenants/tenant.js';

/** The `tenant` of the export's manifest: a file format of the export, not an API body, so defined here. */
export interface TenantSettings {
  name: string;
  region: string;
  features: Features;
  authentication: 'local' | 'oidc';
  oidc?: { issuer: string; audience: string };
  workflow: { review_required: Tenant['workflow']['reviewRequired'] };
  engine: {
    supported_score: number;
    high_confidence: number;
    medium_confidence: number;
    contradicted_severity: Severity;
    unsupported_severity: Severity;
    source_conflict_severity: Severity;
  };
  rate_limit: { requests: number; window_seconds: number };
  audit_retention_days: number;
  webhook: { enabled: boolean; url: string | null; include_successful: boolean; bearer_token_set: boolean; signing_secret_set: boolean };
  /** `endpoints_with_credentials`: the URLs the tenant file has credentials for, never the credentials. */
  outbound: { allow: string[]; endpoints_with_credentials: string[] };
  api_keys: { id: string; name: string | null; role: Role }[];
  billing_configured: boolean;
}

export function tenantSettings(tenant: Tenant): TenantSettings {
  const { oidc } = tenant.auth;
  const engine = tenant.engineThresholds;
  return {
    name: tenant.name,
    region: tenant.region,
    features: { ...tenant.features },
    authentication: oidc ? 'oidc' : 'local',
    ...(oidc ? { oidc: { issuer: oidc.issuer, audience: oidc.audience } } : {}),
    workflow: { review_required: tenant.workflow.reviewRequired },
    engine: {
      supported_score: engine.supportedScore,
      high_confidence: engine.highConfidence,
      medium_confidence: engine.mediumConfidence,
      contradicted_severity: engine.contradictedSeverity,
      unsupported_severity: engine.unsupportedSeverity,
      source_conflict_severity: engine.sourceConflictSeverity,
    },
    rate_limit: { requests: tenant.rateLimit.requests, window_seconds: tenant.rateLimit.windowSeconds },
    audit_retention_days: tenant.auditRetentionDays,
    webhook: {
      enabled: tenant.webhook.enabled,
      url: tenant.webhook.url,
      include_successful: tenant.webhook.includeSuccessful,
      bearer_token_set: tenant.webhook.bearerToken !== null,
      signing_secret_set: tenant.webhook.signingSecret !== null,
    },
    outbound: { allow: [...tenant.outboundAllow], endpoints_with_credentials: [...(tenant.endpointCredentials?.keys() ?? [])] },
    api_keys: tenant.apiKeys.map((key) => ({ id: key.id, name: key.name, role: key.role })),
    billing_configured: tenant.billing !== undefined,
  };
}
