import type { Role } from '@groundcheck/contract';
import type { Feature } from '../contract/roles.js';
import type { EngineThresholds } from '../engine/index.js';
import type { VerifierChoice } from '../verifiers/verifier-config.js';

export type ReviewPolicy = 'never' | 'always' | 'when_issues';

export interface BootstrapUser {
  email: string;
  name: string;
  role: Role;
  dataAccessRoles: string[];
  passwordHash: string;
}

export interface OidcSettings {
  issuer: string;
  audience: string;
  jwksUri: string;
  rolesClaim: string;
  /** Customer role name → service role; a Map, so a claim such as `constructor` finds nothing. */
  roleMapping: ReadonlyMap<string, Role>;
  dataAccessRolesClaim: string;
  nameClaim: string;
  /** The console's public client at the identity provider; null when the console does not sign this tenant in. */
  console: OidcConsoleClient | null;
}

/** What the browser needs for authorization code with PKCE against the tenant's issuer. */
export interface OidcConsoleClient {
  clientId: string;
  redirectUri: string;
  scope: string;
  /** The RFC 8707 resource indicator that gets an access token for the tenant's audience; null when the provider needs none. */
  resource: string | null;
}

export interface ApiKeyEntry {
  id: string;
  name: string | null;
  role: Role;
  sha256: string;
}

/** A tenant as the operator configured it (section 2.5: not editable through the API). */
export interface Tenant {
  customerId: string;
  name: string;
  region: string;
  features: Record<Feature, boolean>;
  webhook: { enabled: boolean; url: string | null; bearerToken: string | null; signingSecret: string | null; includeSuccessful: boolean };
  workflow: { reviewRequired: ReviewPolicy };
  /** How the engine's scores map to statuses, levels and severities for this tenant. */
  engineThresholds: EngineThresholds;
  /** Fitting an operating point to the tenant's own decided reviews (decisions S106, S113). */
  calibration: TenantCalibration;
  /** The model-backed verifier the tenant chose (null: the deployment's default), and its settings. */
  verifier: TenantVerifier;
  /** Requests per window for the tenant, and optionally for each of its users and API keys. */
  rateLimit: { requests: number; windowSeconds: number; perPrincipal?: number };
  auditRetentionDays: number;
  /** Hosts, addresses and ranges the outbound guard lets through for this tenant although they are private. */
  outboundAllow: string[];
  /**
   * Technical credentials of API-backed source endpoints: headers sent only to the exact endpoint URL
   * (normalised by `endpointUrlKey`) they are configured for. Secrets: never logged or returned.
   * Absent when the tenant file names none.
   */
  endpointCredentials?: ReadonlyMap<string, Readonly<Record<string, string>>>;
  apiKeys: ApiKeyEntry[];
  auth: { local: { users: BootstrapUser[] } | null; oidc: OidcSettings | null };
  /** The tenant's customer at the payment provider (Stripe `cus_…`); absent when it has none. Never returned or exported. */
  billing?: { stripeCustomerId: string };
}

export const defaultRateLimit = { requests: 120, windowSeconds: 60 };
export const defaultAuditRetentionDays = 365;

/** The form an endpoint URL is compared in: as the URL parser writes it (case of scheme and host, default port, dot segments). */
export function endpointUrlKey(url: string): string {
  return new URL(url).href;
}

export interface TenantVerifier {
  choice: VerifierChoice | null;
  /** Claims whose score falls in this band (inclusive) go to the judge. */
  judgeBand: { low: number; high: number };
  /** The entailment model's weight beside the checks. */
  entailmentWeight: number;
}

export interface TenantCalibration {
  /** `suggest`: fitted and reported, applied by an admin; `apply`: also fitted and applied by the server (decision S113). */
  mode: 'off' | 'suggest' | 'apply';
  /** In mode `apply`, new decided reviews between two fits. */
  refitEvery: number;
  targetPrecision: number;
  minDecisions: number;
  minEach: number;
}
