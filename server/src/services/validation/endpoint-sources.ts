// API-backed endpoints of the source groups a validation uses (section 5, decision S26). Each is
// asked the question through the outbound guard with the tenant's allowlist, with the caller's
// context only as its `authz_forwarding` allows and the operator's technical credentials for its
// exact URL; the passages it answers become sources. An endpoint refused, failing or answering out of
// format is skipped with its reason, never an error. The caller's access to the group is checked
// before this runs: an endpoint of a group the caller may not use is never called.

import type { AuthzForwarding, SkippedSource, SourceEndpoint } from '@groundcheck/contract';
import { sha256Hex } from '../../lib/hash.js';
import { createOutboundClient, type OutboundClient, OutboundRefusal, skippedSourceReason } from '../../outbound/index.js';
import { endpointUrlKey } from '../../tenants/tenant.js';
import type { Principal } from '../auth/principal.js';
import type { Caller } from '../call-context.js';
import type { GatheredSource } from './validation-service.js';

export interface EndpointTarget {
  groupId: string;
  endpoint: SourceEndpoint;
}

/** The contract's `SourceEndpoint` description. */
export const endpointLimits = { maxBytes: 1024 * 1024, timeoutMs: 15_000, maxPassages: 100, maxReferenceChars: 500 } as const;

/**
 * Percent-encodes (UTF-8) what a header value cannot carry as is, and `%` and `,` so that a
 * downstream can split the role list and decode each item; ordinary ids and role names pass unchanged.
 */
function headerValue(value: string): string {
  return value.replace(/[^\x21-\x24\x26-\x2b\x2d-\x7e]/gu, (char) =>
    [...Buffer.from(char, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );
}

/** The `X-Service-*` headers this endpoint's `authz_forwarding` turns on (all off by default). */
export function forwardedHeaders(principal: Principal, forwarding: AuthzForwarding = {}): Record<string, string> {
  const headers: Record<string, string> = {};
  if (forwarding.user_id) headers['x-service-user-id'] = headerValue(principal.id);
  if (forwarding.customer_id) headers['x-service-customer-id'] = headerValue(principal.tenant.customerId);
  if (forwarding.data_access_roles) headers['x-service-data-access-roles'] = principal.dataAccessRoles.map(headerValue).join(',');
  if (forwarding.original_jwt && principal.originalJwt) headers['x-service-original-jwt'] = principal.originalJwt.reveal();
  return headers;
}

interface Passage {
  text: string;
  reference: string | null;
}

/** `{passages: [{text, reference?}]}`, or null for any other shape. */
function passagesOf(body: Buffer): Passage[] | null {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
  const passages = (value as { passages?: unknown } | null)?.passages;
  if (!Array.isArray(passages)) return null;
  const parsed: Passage[] = [];
  for (const item of passages.slice(0, endpointLimits.maxPassages)) {
    const { text, reference } = (item ?? {}) as { text?: unknown; reference?: unknown };
    if (typeof text !== 'string' || (reference !== undefined && reference !== null && typeof reference !== 'string')) return null;
    if (text.trim() === '') continue;
    parsed.push({ text: text.trim(), reference: reference ? reference.slice(0, endpointLimits.maxReferenceChars) : null });
  }
  return parsed;
}

/** The operator's headers for exactly this URL; none for a URL that does not parse (the guard refuses it). */
function credentialsFor(caller: Caller, url: string): Readonly<Record<string, string>> {
  let key: string;
  try {
    key = endpointUrlKey(url);
  } catch {
    return {};
  }
  return caller.tenant.endpointCredentials?.get(key) ?? {};
}

async function queryOne(
  client: OutboundClient,
  caller: Caller,
  { groupId, endpoint }: EndpointTarget,
  question: string,
): Promise<GatheredSource[] | SkippedSource> {
  const skip = (reason: SkippedSource['reason'], why: string): SkippedSource => {
    caller.log.info({ groupId, endpoint: endpoint.name, reason, why }, 'source endpoint skipped');
    return { kind: 'endpoint', reference: endpoint.name, group_id: groupId, reason };
  };
  const credentials = credentialsFor(caller, endpoint.url);
  let body: Buffer;
  try {
    ({ body } = await client.request(endpoint.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...forwardedHeaders(caller.principal, endpoint.authz_forwarding), ...credentials },
      body: JSON.stringify({ question }),
      accept: ['application/json'],
      acceptStatus: (status) => status === 200,
      // Identity and credentials go to the configured URL only; a redirect answers as a failure.
      redirect: 'manual',
      signal: caller.abortSignal,
    }));
  } catch (error) {
    if (error instanceof OutboundRefusal) return skip(skippedSourceReason(error.reason), error.reason);
    throw error;
  }
  const passages = passagesOf(body);
  if (!passages) return skip('unsupported_content', 'not_passages');
  return passages.map(({ text, reference }) => ({
    kind: 'endpoint' as const,
    reference: reference ? `${endpoint.name}: ${reference}` : endpoint.name,
    group_id: groupId,
    sha256: sha256Hex(text),
    text,
  }));
}

/** Every endpoint at once; sources in the order of the targets, then their passages. */
export async function queryEndpointSources(
  caller: Caller,
  targets: readonly EndpointTarget[],
  question: string,
): Promise<{ sources: GatheredSource[]; skipped: SkippedSource[] }> {
  if (targets.length === 0) return { sources: [], skipped: [] };
  const client = createOutboundClient({
    allow: caller.tenant.outboundAllow,
    totalTimeoutMs: endpointLimits.timeoutMs,
    maxBytes: endpointLimits.maxBytes,
  });
  const outcomes = await Promise.all(targets.map((target) => queryOne(client, caller, target, question)));
  return {
    sources: outcomes.flatMap((outcome) => (Array.isArray(outcome) ? outcome : [])),
    skipped: outcomes.flatMap((outcome) => (Array.isArray(outcome) ? [] : [outcome])),
  };
}
