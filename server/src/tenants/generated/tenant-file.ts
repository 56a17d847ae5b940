// Generated from server/tenant-file.schema.json by scripts/generate-tenant-file-type.mjs. Do not edit.

export type Role = "viewer" | "user" | "admin";

/**
 * The operator's list of tenants. Any string may be written as ${NAME} to read it from the environment variable NAME.
 */
export interface TenantFile {
  /**
   * @minItems 1
   */
  tenants: [Tenant, ...Tenant[]];
}
export interface Tenant {
  customer_id: string;
  name: string;
  /**
   * Where the tenant's data is kept; defaults to the server's REGION.
   */
  region?: string;
  features?: {
    document_templates?: boolean;
    audit_trail?: boolean;
  };
  /**
   * What the server may reach on this tenant's behalf (URL sources, source endpoints, the webhook, the identity provider's keys).
   */
  outbound?: {
    /**
     * Host names, addresses or CIDR ranges reachable even though they are private, loopback or link-local. Cloud metadata addresses stay refused.
     *
     * @maxItems 100
     */
    allow?: string[];
    /**
     * Technical credentials of API-backed source endpoints: headers sent with every request to exactly this URL (as a source group's endpoint names it). Never set or shown through the API; write secrets as ${NAME}.
     *
     * @maxItems 100
     */
    endpoint_credentials?: {
      url: string;
      headers: {
        [k: string]: string;
      };
    }[];
  };
  webhook?: {
    enabled?: boolean;
    url?: string;
    bearer_token?: string;
    /**
     * Beyond the specification: a Standard Webhooks secret (whsec_ + base64 of 24+ random bytes); deliveries then also carry webhook-id, webhook-timestamp and webhook-signature.
     */
    signing_secret?: string;
    include_successful?: boolean;
  };
  workflow?: {
    review_required?: "never" | "always" | "when_issues";
  };
  /**
   * How the engine's scores map to statuses, levels and severities (README: Engine thresholds).
   */
  engine?: {
    supported_score?: number;
    high_confidence?: number;
    medium_confidence?: number;
    contradicted_severity?: "low" | "medium" | "high" | "critical";
    unsupported_severity?: "low" | "medium" | "high" | "critical";
    source_conflict_severity?: "low" | "medium" | "high" | "critical";
    /**
     * The model-backed verifier behind the deterministic checks (README: Model-backed verifiers). Unset: the deployment's ENGINE_VERIFIER (`onnx` unless set). `none` is the checks alone; `openai` needs OPENAI_API_KEY (or AZURE_OPENAI_ENDPOINT) and sends claims and source passages to that endpoint; `onnx` runs the shipped entailment model (or ENGINE_MODEL_DIR's) and keeps all text in the deployment.
     */
    verifier?: "none" | "openai" | "onnx";
    /**
     * With `openai`: the claims whose score the checks leave between `low` and `high` (inclusive) go to the judge. Default 0.2 to 0.8.
     */
    judge_band?: {
      low: number;
      high: number;
    };
    /**
     * With `onnx`: a factor on the weights fitted for the model's signals (1 keeps the fit, 0 leaves the model out of the decision, 2 doubles its say). Default 1.
     */
    entailment_weight?: number;
    /**
     * An operating point fitted to the tenant's own decided reviews (decisions S106, S113), reported in the analytics payload's `calibration`. `suggest` (default) fits and reports, and an admin may apply the suggested point (POST /api/v1/engine/operating-point); `apply` also fits periodically and after every `refit_every` new decisions and applies a point that beats the current one, with an audit event; `off` fits nothing and puts `supported_score` back in force. An applied point overrides `supported_score` until the mode is `off` or `supported_score` is changed here.
     */
    calibration?: {
      mode?: "off" | "suggest" | "apply";
      /**
       * In mode `apply`, new decided reviews between two fits.
       */
      refit_every?: number;
      /**
       * The precision of flags the fitted point must reach.
       */
      target_precision?: number;
      /**
       * Decided reviews needed before anything is fitted.
       */
      min_decisions?: number;
      /**
       * Of which at least this many found the answer right, and as many wrong.
       */
      min_each?: number;
    };
  };
  rate_limit?: {
    requests: number;
    window_seconds: number;
    /**
     * Requests one user or API key may make in the window, at most `requests`: one leaked key cannot spend the whole tenant's quota. Unset: the tenant's limit alone.
     */
    per_principal?: number;
  };
  audit_retention_days?: number;
  /**
   * The tenant's customer at the payment provider; the billing portal needs it and STRIPE_SECRET_KEY.
   */
  billing?: {
    /**
     * Stripe customer id (cus_…).
     */
    stripe_customer_id?: string;
  };
  api_keys?: {
    /**
     * The key's public part, the 8 characters after gck_.
     */
    id: string;
    name?: string;
    role: Role;
    /**
     * SHA-256 of the whole key, in hex.
     */
    sha256: string;
  }[];
  auth: {
    local?: {
      /**
       * Users created at start when no user with that email exists yet.
       */
      users?: {
        email: string;
        name: string;
        role: Role;
        data_access_roles?: string[];
        /**
         * From `npm run hash-password -w @groundcheck/server`.
         */
        password_hash: string;
      }[];
    };
    oidc?: {
      issuer: string;
      audience: string;
      jwks_uri: string;
      roles_claim?: string;
      /**
       * The customer's role names mapped to admin, user or viewer.
       */
      role_mapping: {
        [k: string]: Role;
      };
      data_access_roles_claim?: string;
      name_claim?: string;
      /**
       * The console's sign-in through this identity provider: authorization code with PKCE from the browser. Without it the tenant's people call the API with their tokens but cannot sign in to the console.
       */
      console?: {
        /**
         * The console's public client (no secret, PKCE required) registered at the identity provider.
         */
        client_id: string;
        /**
         * The console's sign-in callback on this server, exactly as registered for the client: https://<host>/console/sign-in/callback.
         */
        redirect_uri: string;
        /**
         * The scopes asked for, openid among them; add the API's scope for providers that name the audience through one (such as api://groundcheck/access).
         */
        scope?: string;
        /**
         * An RFC 8707 resource indicator sent with the authorization and token requests, for providers that issue the access token for `audience` that way; usually `audience` itself.
         */
        resource?: string;
      };
    };
  };
}
