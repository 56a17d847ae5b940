// What the mock needs to know of the bundled contract beyond what Prism reads itself: which
// operations need credentials, which accept an API key in the body, which take an Idempotency-Key
// (the contract package's tables, generated from the same openapi.yaml), which are cursor-paged, which name their response examples after a field of the request, the
// shape of each request body (to tell Prism's violations of the body's own shape from those of the
// shapes it is not), and the documented problems it answers with.
import { readFileSync } from 'node:fs';
import { apiKeyPaths, idempotentPaths, openPaths } from '@groundcheck/contract';
import { parse } from 'yaml';

/** Whether one of the contract package's operation tables (generated from the same contract) lists the path. */
const listed = (paths: readonly string[], path: string) => paths.includes(path);

export interface Route {
  method: string;
  pattern: RegExp;
  /** `x-required-role` is not `none`: a call with no credentials at all answers 401. */
  needsCredentials: boolean;
  /** `x-api-key: true`: credentials may come as `api_key` in the body instead of a bearer token. */
  acceptsApiKey: boolean;
  /** Declares the `Idempotency-Key` header: a key sent again replays the first answer. */
  idempotent: boolean;
  /** The body takes a `cursor`: a page asked for with one is the last. */
  paged: boolean;
  /** The request field whose value names the 200 response example (`mode`, `action`), if any. */
  exampleField: string | null;
  /** Names of the 200 response examples. */
  examples: string[];
  /** The shape a request body takes, or null when the operation has no JSON body. */
  body: BodyShape | null;
}

/** A body with a discriminator has one shape per value of its `tag`; any other body has one `shape`. */
export type BodyShape = { tag: string; shapes: Record<string, ObjectShape> } | { tag: null; shape: ObjectShape };

export interface ObjectShape {
  /** The fields the object declares. */
  properties: string[];
  /** The fields it requires outright. */
  required: string[];
  /** Its `anyOf` alternatives (through `allOf`): the fields each one requires. */
  alternatives: string[][];
  /** `additionalProperties: false`. */
  closed: boolean;
}

export interface Contract {
  routes: Route[];
  /** The documented problem body of a status, by example name (the first one when not named). */
  problem(response: string, example?: string): Record<string, unknown>;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item) => typeof item === 'string') : []);

export function loadContract(specPath: string): Contract {
  const spec: unknown = parse(readFileSync(specPath, 'utf8'));
  const step = (node: unknown, key: string): unknown => (isObject(node) ? node[key] : undefined);
  /** The node at `keys`, following a `$ref` wherever one stands. */
  const get = (node: unknown, ...keys: string[]): unknown => {
    const resolved = isObject(node) && typeof node.$ref === 'string' ? get(spec, ...node.$ref.slice(2).split('/')) : node;
    const [key, ...rest] = keys;
    return key === undefined ? resolved : get(step(resolved, key), ...rest);
  };
  const objectShape = (schema: unknown): ObjectShape => {
    const parts = [get(schema), ...((get(schema, 'allOf') as unknown[] | undefined) ?? []).map((part) => get(part))];
    return {
      properties: Object.keys((get(schema, 'properties') as Json | undefined) ?? {}),
      required: parts.flatMap((part) => strings(step(part, 'required'))),
      alternatives: parts.flatMap((part) =>
        ((step(part, 'anyOf') as unknown[] | undefined) ?? []).map((alt) => strings(get(alt, 'required'))),
      ),
      closed: get(schema, 'additionalProperties') === false,
    };
  };
  const bodyShape = (schema: unknown): BodyShape | null => {
    if (!isObject(get(schema))) return null;
    const tag = get(schema, 'discriminator', 'propertyName');
    const mapping = get(schema, 'discriminator', 'mapping');
    if (typeof tag !== 'string' || !isObject(mapping)) return { tag: null, shape: objectShape(schema) };
    const shapes = Object.fromEntries(Object.entries(mapping).map(([value, ref]) => [value, objectShape({ $ref: ref })]));
    return { tag, shapes };
  };
  const routes: Route[] = [];
  for (const [path, item] of Object.entries(get(spec, 'paths') as Json)) {
    for (const [method, operation] of Object.entries(item as Json)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method) || !isObject(operation)) continue;
      const body = get(operation, 'requestBody', 'content', 'application/json', 'schema');
      const examples = Object.keys((get(operation, 'responses', '200', 'content', 'application/json', 'examples') as Json) ?? {});
      const field = get(body, 'discriminator', 'propertyName');
      const mapping = (get(body, 'discriminator', 'mapping') as Json) ?? {};
      const named = typeof field === 'string' && examples.length > 0 && examples.every((name) => name in mapping);
      routes.push({
        method: method.toUpperCase(),
        pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
        needsCredentials: !listed(openPaths, path),
        acceptsApiKey: listed(apiKeyPaths, path),
        idempotent: listed(idempotentPaths, path),
        paged: get(body, 'properties', 'cursor') !== undefined,
        exampleField: named ? field : null,
        examples,
        body: bodyShape(body),
      });
    }
  }
  return {
    routes,
    problem(response, example) {
      const media = get(spec, 'components', 'responses', response, 'content', 'application/problem+json');
      const examples = (get(media, 'examples') as Json | undefined) ?? {};
      const value = get(media, 'example') ?? get(example ? examples[example] : Object.values(examples)[0], 'value');
      if (!isObject(value)) throw new Error(`The contract documents no ${response} problem${example ? ` named ${example}` : ''}.`);
      return structuredClone(value);
    },
  };
}

export function routeOf(contract: Contract, method: string, path: string): Route | undefined {
  return contract.routes.find((route) => route.method === method && route.pattern.test(path));
}
