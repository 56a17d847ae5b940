// The problem codes openapi.yaml lists: every code in `Problem.code`'s enum, and per operation and
// status the operation's own `x-problem-codes` entry, or else the shared response's.
import type { OpenAPIV3_1 } from 'openapi-types';
import type { Operation, Spec } from './spec.js';

type Response = OpenAPIV3_1.ResponseObject & { 'x-problem-codes'?: string[] };
type Listing = Operation & { 'x-problem-codes'?: Record<string, string[]> };

/** Every code a problem can carry. */
export function contractCodes(spec: Spec): string[] {
  const problem = spec.components!.schemas!.Problem as OpenAPIV3_1.SchemaObject;
  return (problem.properties!.code as OpenAPIV3_1.SchemaObject).enum as string[];
}

/** The operation's own `x-problem-codes`, by status. */
export function ownProblemCodes(operation: Operation): Record<string, string[]> {
  return (operation as Listing)['x-problem-codes'] ?? {};
}

/** The response of a status with what a renderer shows: a `$ref`'s own description replaces the shared one. */
export function responseOf(spec: Spec, operation: Operation, status: string): { response: Response; description: string } | null {
  const declared = operation.responses?.[status] as Response | OpenAPIV3_1.ReferenceObject | undefined;
  if (!declared) return null;
  if (!('$ref' in declared)) return { response: declared, description: declared.description };
  const response = spec.components!.responses![declared.$ref.split('/').pop()!] as Response;
  return { response, description: declared.description ?? response.description };
}

/** The codes an operation lists for a status; null when that status answers no problem. */
export function problemCodes(spec: Spec, operation: Operation, status: string): string[] | null {
  const found = responseOf(spec, operation, status);
  if (!found?.response.content?.['application/problem+json']) return null;
  return ownProblemCodes(operation)[status] ?? found.response['x-problem-codes'] ?? [];
}

/** The codes a text names in backticks. */
export function namedCodes(text: string | undefined, codes: readonly string[]): string[] {
  const named = [...(text ?? '').matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!).filter((word) => codes.includes(word));
  return [...new Set(named)];
}
