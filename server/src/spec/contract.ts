// The contract, loaded from the root openapi.yaml: the server enforces what it says.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { components } from '../generated/openapi.js';

export type Role = components['schemas']['Role'];
export type Feature = keyof components['schemas']['Features'];

export interface OperationInfo {
  operationId: string;
  method: string;
  pathTemplate: string;
  /** `none` for operations that need no credentials. */
  requiredRole: Role | 'none';
  requiredFeature: Feature | null;
  acceptsApiKey: boolean;
  /** Declares a JSON request body. */
  hasBody: boolean;
  /** Declares the Idempotency-Key header: the first response to a key is replayed for 24 hours. */
  idempotent: boolean;
}

export interface Contract {
  document: Record<string, unknown>;
  operations: OperationInfo[];
  /** The operation a request addresses, or the methods its path accepts when none matches. */
  match(method: string, path: string): OperationInfo | { allowed: string[] } | null;
}

const idempotencyKeyRef = '#/components/parameters/IdempotencyKey';

export const specPath = fileURLToPath(new URL('../../../openapi.yaml', import.meta.url));

interface RawParameter {
  $ref?: string;
}

interface RawOperation {
  operationId: string;
  parameters?: RawParameter[];
  'x-required-role'?: Role | 'none';
  'x-required-feature'?: Feature;
  'x-api-key'?: boolean;
  requestBody?: unknown;
}

export function loadContract(path = specPath): Contract {
  const document = parse(readFileSync(path, 'utf8')) as { paths: Record<string, Record<string, RawOperation> & { parameters?: RawParameter[] }> };
  const operations: OperationInfo[] = [];
  for (const [pathTemplate, item] of Object.entries(document.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const operation = item[method];
      if (!operation) continue;
      operations.push({
        operationId: operation.operationId,
        method: method.toUpperCase(),
        pathTemplate,
        requiredRole: operation['x-required-role'] ?? 'admin',
        requiredFeature: operation['x-required-feature'] ?? null,
        acceptsApiKey: operation['x-api-key'] ?? false,
        hasBody: operation.requestBody !== undefined,
        idempotent: [...(item.parameters ?? []), ...(operation.parameters ?? [])].some((p) => p.$ref === idempotencyKeyRef),
      });
    }
  }
  // Literal segments win over parameters, so /templates/upload-url never reaches /templates/{id}.
  const routes = operations
    .map((operation) => ({ operation, regex: templateToRegex(operation.pathTemplate), params: (operation.pathTemplate.match(/\{/g) ?? []).length }))
    .sort((a, b) => a.params - b.params);
  return {
    document,
    operations,
    match(method, path) {
      const candidates = routes.filter((route) => route.regex.test(path));
      if (candidates.length === 0) return null;
      // HEAD is GET without the body, as HTTP defines it (RFC 9110 §9.3.2).
      const wanted = method === 'HEAD' ? 'GET' : method;
      const exact = candidates.find((route) => route.operation.method === wanted);
      if (exact) return exact.operation;
      const allowed = new Set(candidates.map((route) => route.operation.method));
      if (allowed.has('GET')) allowed.add('HEAD');
      return { allowed: [...allowed] };
    },
  };
}

function templateToRegex(template: string): RegExp {
  const pattern = template
    .split('/')
    .map((segment) => (segment.startsWith('{') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${pattern}/?$`);
}

const roleRanks = new Map<string, number>([
  ['viewer', 1],
  ['user', 2],
  ['admin', 3],
]);

/** The role's rank, or 0 for anything that is not one of the three roles. */
export function roleRank(role: unknown): number {
  return typeof role === 'string' ? (roleRanks.get(role) ?? 0) : 0;
}

/** Fails closed: an unknown or missing role has no rights, and no role satisfies an unknown requirement. */
export function hasRole(actual: unknown, required: Role): boolean {
  const needed = roleRank(required);
  return needed > 0 && roleRank(actual) >= needed;
}

export function isRole(value: unknown): value is Role {
  return roleRank(value) > 0;
}
