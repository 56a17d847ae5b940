// A fetch for the SDK that records which operation each call reached and with what status, and
// checks every answer against the contract: a declared status, a declared media type, for JSON the
// declared schema (Ajv), and for a problem a code the operation lists for that status. It also
// catches Prism's own error answers (a violation found by the validating proxy). Calls to hosts
// other than loopback are presigned storage uploads from the mock's examples: they are answered
// here, so nothing leaves the machine.
import { isDeepStrictEqual } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { OpenAPIV3_1 } from 'openapi-types';
import { problemCodes } from '../../support/problem-codes.js';
import { type Operation, operations, type Spec } from '../../support/spec.js';

export interface Exchange {
  operationId: string;
  status: number;
}

export interface Recorder {
  fetch(request: Request): Promise<Response>;
  exchanges: Exchange[];
  /** Every way an answer departed from the contract, with the call that got it. */
  problems: string[];
}

interface Route {
  method: string;
  pattern: RegExp;
  operationId: string;
  operation: Operation;
  responses: Record<string, OpenAPIV3_1.ResponseObject | OpenAPIV3_1.ReferenceObject>;
  pointer: string;
}

/**
 * The mock answers a status with its shared response's example (with the call's own `instance` and
 * `request_id`), whose code stands for the status on every operation sharing it. A server's problem
 * does not repeat an example: its `detail` describes the occurrence.
 */
function isExample(body: unknown, response: OpenAPIV3_1.ResponseObject): boolean {
  const media = response.content?.['application/problem+json'];
  const examples = [media?.example, ...Object.values(media?.examples ?? {}).map((e) => (e as OpenAPIV3_1.ExampleObject).value)];
  const occurrence = (problem: object) => ({ ...problem, instance: undefined, request_id: undefined });
  return examples.some((example) => example && isDeepStrictEqual(occurrence(example), occurrence(body as object)));
}

const loopback = new Set(['127.0.0.1', 'localhost', '[::1]']);
const pointerEscape = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

export function createRecorder(spec: Spec): Recorder {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  // Ajv does not implement OpenAPI's discriminator keyword; the oneOf it annotates still applies.
  ajv.addSchema(JSON.parse(JSON.stringify(spec, (key, value) => (key === 'discriminator' ? undefined : value))), 'spec');
  const routes: Route[] = operations(spec).map(({ method, path, operation }) => ({
    method: method.toUpperCase(),
    pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    operationId: operation.operationId!,
    operation,
    responses: (operation.responses ?? {}) as Route['responses'],
    pointer: `#/paths/${pointerEscape(path)}/${method}/responses`,
  }));
  const exchanges: Exchange[] = [];
  const problems: string[] = [];

  /** Where the response of this status lives, following a $ref to a shared response. */
  const responseOf = (route: Route, status: string) => {
    const response = route.responses[status];
    if (!response) return null;
    if ('$ref' in response) {
      const name = response.$ref.split('/').pop()!;
      return { object: spec.components!.responses![name] as OpenAPIV3_1.ResponseObject, pointer: response.$ref };
    }
    return { object: response, pointer: `${route.pointer}/${status}` };
  };

  const check = async (route: Route, request: Request, response: Response) => {
    const call = `${request.method} ${new URL(request.url).pathname} → ${response.status}`;
    const media = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
    const text = await response.clone().text();
    if (media === 'application/problem+json' && text.includes('https://stoplight.io/prism/errors')) {
      return problems.push(`${call}: Prism found a violation: ${text}`);
    }
    const declared = responseOf(route, String(response.status));
    if (!declared) return problems.push(`${call}: status not declared`);
    const content = declared.object.content ?? {};
    if (!(media in content)) return problems.push(`${call}: media type ${media || '(none)'} not declared`);
    if (!media.endsWith('json')) return;
    const validate = ajv.getSchema(`spec${declared.pointer}/content/${pointerEscape(media)}/schema`);
    const body: unknown = JSON.parse(text);
    if (!validate?.(body)) problems.push(`${call}: body does not match the schema: ${ajv.errorsText(validate?.errors)}`);
    const listed = problemCodes(spec, route.operation, String(response.status));
    const code = (body as { code?: unknown } | null)?.code;
    if (listed && !listed.includes(code as string) && !isExample(body, declared.object)) {
      problems.push(`${call}: code ${String(code)} is not one ${route.operationId} lists for ${response.status} (${listed.join(', ')})`);
    }
  };

  return {
    exchanges,
    problems,
    async fetch(request) {
      const url = new URL(request.url);
      if (!loopback.has(url.hostname)) return new Response(null, { status: 201 });
      const response = await fetch(request);
      const route = routes.find((r) => r.method === request.method && r.pattern.test(url.pathname));
      if (route) {
        exchanges.push({ operationId: route.operationId, status: response.status });
        await check(route, request, response);
      }
      return response;
    },
  };
}
