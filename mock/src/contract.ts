// What the mock needs to know of the bundled contract beyond what Prism reads itself: which
// operations need credentials, which accept an API key in the body, which name their response
// examples after a field of the request, and the documented problems it answers with.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

export interface Route {
  method: string;
  pattern: RegExp;
  /** `x-required-role` is not `none`: a call with no credentials at all answers 401. */
  needsCredentials: boolean;
  /** `x-api-key: true`: credentials may come as `api_key` in the body instead of a bearer token. */
  acceptsApiKey: boolean;
  /** The request field whose value names the 200 response example (`mode`, `action`), if any. */
  exampleField: string | null;
  /** Names of the 200 response examples. */
  examples: string[];
}

export interface Contract {
  routes: Route[];
  /** The documented problem body of a status, by example name (the first one when not named). */
  problem(response: string, example?: string): Record<string, unknown>;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

export function loadContract(specPath: string): Contract {
  const spec: unknown = parse(readFileSync(specPath, 'utf8'));
  const step = (node: unknown, key: string): unknown => (isObject(node) ? node[key] : undefined);
  /** The node at `keys`, following a `$ref` wherever one stands. */
  const get = (node: unknown, ...keys: string[]): unknown => {
    const resolved = isObject(node) && typeof node.$ref === 'string' ? get(spec, ...node.$ref.slice(2).split('/')) : node;
    const [key, ...rest] = keys;
    return key === undefined ? resolved : get(step(resolved, key), ...rest);
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
        needsCredentials: operation['x-required-role'] !== 'none',
        acceptsApiKey: operation['x-api-key'] === true,
        exampleField: named ? field : null,
        examples,
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
