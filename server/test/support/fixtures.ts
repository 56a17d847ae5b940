// A tenant file for tests, with credentials made fresh for each run.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Role } from '@groundcheck/contract';
import { stringify } from 'yaml';
import { generateApiKey } from '../../src/services/auth/api-keys.js';
import { hashPassword } from '../../src/services/auth/passwords.js';

export const roles: Role[] = ['viewer', 'user', 'admin'];
export const password = (customerId: string, role: Role) => `${customerId}-${role}-password`;
export const email = (customerId: string, role: Role) => `${role}@${customerId}.test`;

export const oidcIssuer = 'https://idp.initech.test';
export const oidcAudience = 'api://groundcheck';

export interface Fixture {
  file: string;
  /** API keys by tenant and role. */
  apiKeys: Record<string, Record<Role, string>>;
}

let hashes: Promise<Map<string, string>> | undefined;

function localUsers(customerId: string, passwordHashes: Map<string, string>) {
  return roles.map((role) => ({
    email: email(customerId, role),
    name: `${role[0]!.toUpperCase()}${role.slice(1)} of ${customerId}`,
    role,
    data_access_roles: role === 'viewer' ? [] : ['hr'],
    password_hash: passwordHashes.get(password(customerId, role))!,
  }));
}

/** Tenants: acme (all features), globex (no features), tiny (3 requests per 2 s), initech (OIDC). */
export async function writeFixture(options: { jwksUri?: string; overrides?: Record<string, unknown> } = {}): Promise<Fixture> {
  const localTenants = ['acme', 'globex', 'tiny'];
  hashes ??= Promise.all(
    localTenants.flatMap((t) => roles.map(async (r) => [password(t, r), await hashPassword(password(t, r))] as const)),
  ).then((entries) => new Map(entries));
  const passwordHashes = await hashes;
  const apiKeys: Fixture['apiKeys'] = {};
  const keysFor = (customerId: string) => {
    const generated = roles.map((role) => ({ role, ...generateApiKey() }));
    apiKeys[customerId] = Object.fromEntries(generated.map((g) => [g.role, g.key])) as Record<Role, string>;
    return generated.map(({ id, role, sha256 }) => ({ id, role, sha256 }));
  };
  const tenants = [
    {
      customer_id: 'acme',
      name: 'Acme Corporation',
      features: { document_templates: true, audit_trail: true },
      rate_limit: { requests: 100000, window_seconds: 60 },
      api_keys: keysFor('acme'),
      auth: { local: { users: localUsers('acme', passwordHashes) } },
    },
    {
      customer_id: 'globex',
      name: 'Globex',
      features: { document_templates: false, audit_trail: false },
      rate_limit: { requests: 100000, window_seconds: 60 },
      api_keys: keysFor('globex'),
      auth: { local: { users: localUsers('globex', passwordHashes) } },
    },
    {
      customer_id: 'tiny',
      name: 'Tiny Ltd',
      rate_limit: { requests: 3, window_seconds: 2 },
      api_keys: keysFor('tiny'),
      auth: { local: { users: localUsers('tiny', passwordHashes) } },
    },
    {
      customer_id: 'initech',
      name: 'Initech',
      features: { document_templates: true, audit_trail: true },
      // The test identity provider listens on loopback, which the outbound guard refuses unless allowed.
      outbound: { allow: ['127.0.0.1'] },
      auth: {
        oidc: {
          issuer: oidcIssuer,
          audience: oidcAudience,
          jwks_uri: options.jwksUri ?? 'http://127.0.0.1:9/jwks',
          roles_claim: 'roles',
          role_mapping: { 'GC.Admin': 'admin', 'GC.Reviewer': 'user', 'GC.Reader': 'viewer' },
          data_access_roles_claim: 'groups',
        },
      },
    },
  ].map((tenant) => ({ ...tenant, ...(options.overrides?.[tenant.customer_id] as object | undefined) }));
  const file = join(mkdtempSync(join(tmpdir(), 'gc-tenants-')), 'tenants.yaml');
  writeFileSync(file, stringify({ tenants }));
  return { file, apiKeys };
}
