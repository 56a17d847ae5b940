// The parts of an OpenAPI 3.1 document the API reference reads, and the lookup of local `$ref`s.

export interface SchemaObject {
  $ref?: string;
  type?: string | string[];
  format?: string;
  title?: string;
  description?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  additionalProperties?: boolean | SchemaObject;
  items?: SchemaObject;
  prefixItems?: SchemaObject[];
  allOf?: SchemaObject[];
  oneOf?: SchemaObject[];
  anyOf?: SchemaObject[];
  not?: SchemaObject;
  discriminator?: { propertyName: string; mapping?: Record<string, string> };
  examples?: unknown[];
  example?: unknown;
  [keyword: string]: unknown;
}

export interface ExampleObject {
  $ref?: string;
  summary?: string;
  description?: string;
  value?: unknown;
}

export interface MediaTypeObject {
  schema?: SchemaObject;
  example?: unknown;
  examples?: Record<string, ExampleObject>;
}

export interface HeaderObject {
  $ref?: string;
  description?: string;
  required?: boolean;
  schema?: SchemaObject;
}

export interface ParameterObject extends HeaderObject {
  name: string;
  in: string;
}

export interface ResponseObject {
  $ref?: string;
  description?: string;
  headers?: Record<string, HeaderObject>;
  content?: Record<string, MediaTypeObject>;
  [extension: `x-${string}`]: unknown;
}

export interface OperationObject {
  operationId?: string;
  tags?: string[];
  summary?: string;
  description?: string;
  deprecated?: boolean;
  security?: Record<string, string[]>[];
  parameters?: ParameterObject[];
  requestBody?: { $ref?: string; description?: string; required?: boolean; content?: Record<string, MediaTypeObject> };
  responses?: Record<string, ResponseObject>;
  [extension: `x-${string}`]: unknown;
}

export const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export type PathItemObject = Partial<Record<(typeof httpMethods)[number], OperationObject>> & { parameters?: ParameterObject[] };

export interface OpenApiDocument {
  info: { title: string; version: string; summary?: string; description?: string };
  servers?: { url: string; description?: string; variables?: Record<string, { default: string; description?: string }> }[];
  tags?: { name: string; description?: string }[];
  paths?: Record<string, PathItemObject>;
  webhooks?: Record<string, PathItemObject>;
  components?: {
    schemas?: Record<string, SchemaObject>;
    securitySchemes?: Record<string, { type: string; scheme?: string; bearerFormat?: string; description?: string }>;
    [kind: string]: Record<string, unknown> | undefined;
  };
}

/** An operation with where it sits: `paths` or `webhooks`, its path or webhook name, its method. */
export interface OperationEntry {
  key: string;
  method: string;
  pathItem: PathItemObject;
  operation: OperationObject;
}

export function operationsOf(items: Record<string, PathItemObject> | undefined): OperationEntry[] {
  return Object.entries(items ?? {}).flatMap(([key, pathItem]) =>
    httpMethods.flatMap((method) => {
      const operation = pathItem[method];
      return operation ? [{ key, method, pathItem, operation }] : [];
    }),
  );
}

/** The object a local `$ref` (`#/components/…`) names, followed until it is not a reference. */
export function resolve<T extends { $ref?: string }>(document: OpenApiDocument, object: T): T {
  let current = object;
  for (let hops = 0; current.$ref && hops < 20; hops++) {
    const target = current.$ref
      .replace(/^#\//, '')
      .split('/')
      .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce<unknown>((node, segment) => (node as Record<string, unknown> | undefined)?.[segment], document);
    if (!target) throw new Error(`Unresolvable $ref ${current.$ref}`);
    current = target as T;
  }
  return current;
}

/** `#/components/schemas/Template` → `Template`. */
export function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1);
}
