// The contract as the tests see it: parsed once, with every $ref resolved.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3_1 } from 'openapi-types';
import { parse } from 'yaml';

export const specPath = fileURLToPath(new URL('../../contract/openapi.yaml', import.meta.url));
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export type Spec = OpenAPIV3_1.Document;
export type Operation = OpenAPIV3_1.OperationObject & {
  'x-required-role'?: string;
  'x-required-feature'?: string;
  'x-api-key'?: boolean;
};

export function rawSpec(): Spec {
  return parse(readFileSync(specPath, 'utf8')) as Spec;
}

export async function dereferencedSpec(): Promise<Spec> {
  return (await SwaggerParser.dereference(rawSpec() as never)) as Spec;
}

export interface OperationEntry {
  method: string;
  path: string;
  operation: Operation;
}

export function operations(spec: Spec): OperationEntry[] {
  return Object.entries(spec.paths ?? {}).flatMap(([path, item]) =>
    (['get', 'post', 'put', 'patch', 'delete'] as const)
      .filter((method) => item?.[method])
      .map((method) => ({ method, path, operation: item![method] as Operation })),
  );
}
