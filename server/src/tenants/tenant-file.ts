// Reads and checks the operator's tenant file; any problem stops the start with the file, the
// place inside it and the reason.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { defaultThresholds, type EngineThresholds } from '../engine/index.js';
import { parseAllowlist } from '../outbound/address-policy.js';
import type { Tenant as TenantEntry, TenantFile } from './generated/tenant-file.js';
import { defaultAuditRetentionDays, defaultRateLimit, endpointUrlKey, type Tenant } from './tenant.js';

const schema = JSON.parse(readFileSync(new URL('../../tenant-file.schema.json', import.meta.url), 'utf8'));
const validateFile = new Ajv2020({ allErrors: true, useDefaults: true, strict: false }).compile(schema);

export class TenantFileError extends Error {
  constructor(file: string, pointer: string, reason: string) {
    super(`Invalid tenant file ${file} at ${pointer || '/'}: ${reason}`);
    this.name = 'TenantFileError';
  }
}

interface Options {
  /** History retention; every tenant's audit retention must be longer (section 8). */
  historyTtlDays: number;
  region: string;
  env?: NodeJS.ProcessEnv;
}

export function loadTenantFile(file: string, options: Options): Tenant[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new TenantFileError(file, '', `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (error) {
    throw new TenantFileError(file, '', `is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  const data = interpolate(raw, '', file, options.env ?? process.env);
  if (!validateFile(data)) {
    const first = validateFile.errors![0]!;
    throw new TenantFileError(file, first.instancePath, describe(first.message, first.params));
  }
  const raws = (data as TenantFile).tenants;
  raws.forEach((raw, i) => {
    checkEndpointCredentials(raw, file, `/tenants/${i}/outbound/endpoint_credentials`);
  });
  const tenants = raws.map((t) => toTenant(t, options.region));
  check(tenants, file, options.historyTtlDays);
  return tenants;
}

function describe(message: string | undefined, params: Record<string, unknown>): string {
  if ('additionalProperty' in params) return `unknown property "${params.additionalProperty}"`;
  if ('allowedValues' in params) return `${message}: ${(params.allowedValues as unknown[]).join(', ')}`;
  return message ?? 'is invalid';
}

/** Replaces `${NAME}` in strings with the environment variable, so secrets stay out of the file. */
function interpolate(value: unknown, pointer: string, file: string, env: NodeJS.ProcessEnv): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$\{([A-Z0-9_]+)\}/g, (_, name: string) => {
      const resolved = env[name];
      if (resolved === undefined) throw new TenantFileError(file, pointer, `environment variable ${name} is not set`);
      return resolved;
    });
  }
  if (Array.isArray(value)) return value.map((v, i) => interpolate(v, `${pointer}/${i}`, file, env));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, `${pointer}/${k}`, file, env)]));
  }
  return value;
}

function check(tenants: Tenant[], file: string, historyTtlDays: number) {
  const seen = new Set<string>();
  const issuers = new Set<string>();
  tenants.forEach((tenant, i) => {
    const at = `/tenants/${i}`;
    if (seen.has(tenant.customerId)) throw new TenantFileError(file, `${at}/customer_id`, `duplicate customer_id "${tenant.customerId}"`);
    seen.add(tenant.customerId);
    checkSettings(tenant, file, at, historyTtlDays);
    checkUniqueWithin(tenant, file, at);
    const oidc = tenant.auth.oidc;
    if (oidc) {
      // A bearer token is routed to its tenant by issuer and audience, so the pair must be unique.
      const pair = `${oidc.issuer} ${oidc.audience}`;
      if (issuers.has(pair)) throw new TenantFileError(file, `${at}/auth/oidc`, 'another tenant has the same issuer and audience');
      issuers.add(pair);
      // The browser finds the provider's endpoints at <issuer>/.well-known/openid-configuration.
      if (oidc.console && !isHttpUrl(oidc.issuer)) {
        throw new TenantFileError(file, `${at}/auth/oidc/issuer`, 'must be an http(s) URL for the console to sign in through it');
      }
    }
  });
}

function isHttpUrl(value: string): boolean {
  const url = URL.parse(value);
  return url !== null && (url.protocol === 'https:' || url.protocol === 'http:');
}

/** The tenant's settings that the schema cannot check alone. */
function checkSettings(tenant: Tenant, file: string, at: string, historyTtlDays: number) {
  if (tenant.auditRetentionDays <= historyTtlDays) {
    throw new TenantFileError(
      file,
      `${at}/audit_retention_days`,
      `must be longer than the history retention (HISTORY_TTL_DAYS = ${historyTtlDays})`,
    );
  }
  try {
    parseAllowlist(tenant.outboundAllow);
  } catch {
    throw new TenantFileError(file, `${at}/outbound/allow`, 'holds a malformed address range');
  }
  const { perPrincipal, requests } = tenant.rateLimit;
  if (perPrincipal !== undefined && perPrincipal > requests) {
    throw new TenantFileError(file, `${at}/rate_limit/per_principal`, "must not be above the tenant's requests");
  }
  if (tenant.engineThresholds.highConfidence < tenant.engineThresholds.mediumConfidence) {
    throw new TenantFileError(file, `${at}/engine/high_confidence`, 'must not be below medium_confidence');
  }
  if (tenant.verifier.judgeBand.low > tenant.verifier.judgeBand.high) {
    throw new TenantFileError(file, `${at}/engine/judge_band/low`, 'must not be above high');
  }
}

/** API key ids and local users' emails, each once within the tenant. */
function checkUniqueWithin(tenant: Tenant, file: string, at: string) {
  const keyIds = new Set<string>();
  tenant.apiKeys.forEach((key, k) => {
    if (keyIds.has(key.id)) throw new TenantFileError(file, `${at}/api_keys/${k}/id`, `duplicate API key id "${key.id}"`);
    keyIds.add(key.id);
  });
  const emails = new Set<string>();
  tenant.auth.local?.users.forEach((user, u) => {
    if (emails.has(user.email)) throw new TenantFileError(file, `${at}/auth/local/users/${u}/email`, `duplicate email "${user.email}"`);
    emails.add(user.email);
  });
}

/** Headers the server sets itself: a credential may not replace them, nor pose as forwarded caller context. */
const reservedHeader =
  /^(x-service-.*|host|content-type|content-length|transfer-encoding|connection|cookie|accept|accept-encoding|user-agent)$/i;

/** Endpoint URLs parse and appear once per tenant; credential headers leave the server's own alone. */
function checkEndpointCredentials(raw: TenantEntry, file: string, at: string) {
  const urls = new Set<string>();
  raw.outbound?.endpoint_credentials?.forEach((entry, i) => {
    let key: string;
    try {
      key = endpointUrlKey(entry.url);
    } catch {
      throw new TenantFileError(file, `${at}/${i}/url`, 'is not a valid URL');
    }
    if (urls.has(key)) throw new TenantFileError(file, `${at}/${i}/url`, `duplicate endpoint URL "${key}"`);
    urls.add(key);
    for (const name of Object.keys(entry.headers)) {
      if (reservedHeader.test(name)) throw new TenantFileError(file, `${at}/${i}/headers/${name}`, 'is a header the server sets itself');
    }
  });
}

/** The engine's defaults with what the tenant file overrides. */
function engineThresholds(raw: TenantEntry['engine'] = {}): EngineThresholds {
  const d = defaultThresholds;
  return {
    supportedScore: raw.supported_score ?? d.supportedScore,
    highConfidence: raw.high_confidence ?? d.highConfidence,
    mediumConfidence: raw.medium_confidence ?? d.mediumConfidence,
    contradictedSeverity: raw.contradicted_severity ?? d.contradictedSeverity,
    unsupportedSeverity: raw.unsupported_severity ?? d.unsupportedSeverity,
    sourceConflictSeverity: raw.source_conflict_severity ?? d.sourceConflictSeverity,
  };
}

function calibrationSettings(raw: NonNullable<TenantEntry['engine']>['calibration']): Tenant['calibration'] {
  return {
    mode: raw?.mode ?? 'suggest',
    refitEvery: raw?.refit_every ?? 50,
    targetPrecision: raw?.target_precision ?? 0.9,
    minDecisions: raw?.min_decisions ?? 200,
    minEach: raw?.min_each ?? 30,
  };
}

function webhookSettings(raw: TenantEntry['webhook']): Tenant['webhook'] {
  return {
    enabled: raw?.enabled ?? false,
    url: raw?.url ?? null,
    bearerToken: raw?.bearer_token ?? null,
    signingSecret: raw?.signing_secret ?? null,
    includeSuccessful: raw?.include_successful ?? false,
  };
}

function rateLimit(raw: TenantEntry['rate_limit']): Tenant['rateLimit'] {
  if (!raw) return defaultRateLimit;
  return {
    requests: raw.requests,
    windowSeconds: raw.window_seconds,
    ...(raw.per_principal === undefined ? {} : { perPrincipal: raw.per_principal }),
  };
}

function authSettings({ local, oidc }: TenantEntry['auth']): Tenant['auth'] {
  return {
    local: local
      ? {
          users: (local.users ?? []).map((u) => ({
            email: u.email.toLowerCase(),
            name: u.name,
            role: u.role,
            dataAccessRoles: u.data_access_roles ?? [],
            passwordHash: u.password_hash,
          })),
        }
      : null,
    oidc: oidc
      ? {
          issuer: oidc.issuer,
          audience: oidc.audience,
          jwksUri: oidc.jwks_uri,
          // The claims' names have defaults in the schema, which the check above filled in.
          rolesClaim: oidc.roles_claim!,
          roleMapping: new Map(Object.entries(oidc.role_mapping)),
          dataAccessRolesClaim: oidc.data_access_roles_claim!,
          nameClaim: oidc.name_claim!,
          console: oidc.console
            ? {
                clientId: oidc.console.client_id,
                redirectUri: oidc.console.redirect_uri,
                scope: oidc.console.scope!,
                resource: oidc.console.resource ?? null,
              }
            : null,
        }
      : null,
  };
}

function toTenant(raw: TenantEntry, region: string): Tenant {
  return {
    customerId: raw.customer_id,
    name: raw.name,
    region: raw.region ?? region,
    features: { document_templates: raw.features?.document_templates ?? false, audit_trail: raw.features?.audit_trail ?? false },
    webhook: webhookSettings(raw.webhook),
    workflow: { reviewRequired: raw.workflow?.review_required ?? 'never' },
    engineThresholds: engineThresholds(raw.engine),
    calibration: calibrationSettings(raw.engine?.calibration),
    verifier: {
      choice: raw.engine?.verifier ?? null,
      judgeBand: raw.engine?.judge_band ?? { low: 0.2, high: 0.8 },
      entailmentWeight: raw.engine?.entailment_weight ?? 1,
    },
    rateLimit: rateLimit(raw.rate_limit),
    auditRetentionDays: raw.audit_retention_days ?? defaultAuditRetentionDays,
    outboundAllow: raw.outbound?.allow ?? [],
    endpointCredentials: new Map((raw.outbound?.endpoint_credentials ?? []).map((entry) => [endpointUrlKey(entry.url), entry.headers])),
    apiKeys: (raw.api_keys ?? []).map((k) => ({ id: k.id, name: k.name ?? null, role: k.role, sha256: k.sha256 })),
    ...(raw.billing?.stripe_customer_id ? { billing: { stripeCustomerId: raw.billing.stripe_customer_id } } : {}),
    auth: authSettings(raw.auth),
  };
}
