// Bearer tokens from a tenant's identity provider, checked against its JWKS, issuer and audience.
import { createRemoteJWKSet, customFetch, type JWTPayload, jwtVerify } from 'jose';
import { createOutboundClient, outboundFetch } from '../../outbound/index.js';
import type { OidcSettings, Tenant } from '../../tenants/tenant.js';
import { tokenError } from './local-tokens.js';

// Asymmetric algorithms only: a shared-secret (HS*) or `none` token could be forged by anyone who
// knows the public configuration.
const algorithms = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

export class OidcVerifier {
  // jose caches each key set and refetches it when a token names an unknown key id.
  private readonly keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

  async verify(token: string, tenant: Tenant, now: Date): Promise<JWTPayload> {
    const settings = tenant.auth.oidc as OidcSettings;
    // One key set per tenant: the fetch goes through the outbound guard with that tenant's allowlist.
    let keySet = this.keySets.get(tenant.customerId);
    if (!keySet) {
      const fetchKeys = outboundFetch(createOutboundClient({ allow: tenant.outboundAllow, totalTimeoutMs: 5000, maxBytes: 1024 * 1024 }));
      keySet = createRemoteJWKSet(new URL(settings.jwksUri), { timeoutDuration: 5000, cooldownDuration: 30_000, [customFetch]: fetchKeys });
      this.keySets.set(tenant.customerId, keySet);
    }
    try {
      const { payload } = await jwtVerify(token, keySet, {
        issuer: settings.issuer,
        audience: settings.audience,
        algorithms,
        requiredClaims: ['exp', 'sub'],
        currentDate: now,
      });
      return payload;
    } catch (error) {
      throw tokenError(error);
    }
  }
}
