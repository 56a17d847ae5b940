// The contract, loaded from the contract package's openapi.yaml: the server enforces what it says.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Role } from '@groundcheck/contract';
import { parse } from 'yaml';
import type { Feature } from './roles.js';

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

export interface OperationMatch {
  operation: OperationInfo;
  /** The path's parameters by name, decoded. */
  params: Record<string, string>;
}

export interface Contract {
  document: Record<string, unknown>;
  operations: OperationInfo[];
  /** The operation a request addresses, or the methods its path accepts when none matches. */
  match(method: string, path: string): OperationMatch | { allowed: string[] } | null;
}

const idempotencyKeyRef = '#/components/parameters/IdempotencyKey';

export const specPath = fileURLToPath(import.meta.resolve('@groundcheck/contract/openapi.yaml'));

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
  const document = parse(readFileSync(path, 'utf8')) as {
    paths: Record<string, Record<string, RawOperation> & { parameters?: RawParameter[] }>;
  };
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
    .map((operation) => ({ operation, ...templateToRegex(operation.pathTemplate) }))
    .sort((a, b) => a.names.length - b.names.length);
  return {
    document,
    operations,
    match(method, path) {
      const candidates = routes.filter((route) => route.regex.test(path));
      if (candidates.length === 0) return null;
      // HEAD is GET without the body, as HTTP defines it (RFC 9110 §9.3.2).
      const wanted = method === 'HEAD' ? 'GET' : method;
      const exact = candidates.find((route) => route.operation.method === wanted);
      if (exact) {
        const values = exact.regex.exec(path)!.slice(1);
        return { operation: exact.operation, params: Object.fromEntries(exact.names.map((name, i) => [name, safeDecode(values[i]!)])) };
      }
      const allowed = new Set(candidates.map((route) => route.operation.method));
      if (allowed.has('GET')) allowed.add('HEAD');
      return { allowed: [...allowed] };
    },
  };
}

function templateToRegex(template: string): { regex: RegExp; names: string[] } {
  const names: string[] = [];
  const pattern = template
    .split('/')
    .map((segment) => {
      if (!segment.startsWith('{')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(segment.slice(1, -1));
      return '([^/]+)';
    })
    .join('/');
  return { regex: new RegExp(`^${pattern}/?$`), names };
}

/** A segment that is not valid percent-encoding is kept as sent; its pattern check refuses it. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
