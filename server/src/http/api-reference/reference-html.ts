// The API reference as plain HTML, rendered once from the contract: every operation (parameters,
// request body, SDK sample, responses with their problem codes and examples), every webhook and
// every component schema. It needs no script, so people and tools without JavaScript read it.
import { escapeHtml, markdownHtml } from './markdown.js';
import {
  type ExampleObject,
  type MediaTypeObject,
  type OpenApiDocument,
  type OperationEntry,
  type OperationObject,
  operationsOf,
  type ParameterObject,
  type ResponseObject,
  resolve,
  type SchemaObject,
} from './openapi-objects.js';
import { schemaAnchor, schemaHtml, typeHtml } from './schema-html.js';

/** `samples` holds each operation's SDK sample, by operationId. */
export function referenceHtml(document: OpenApiDocument, samples: Readonly<Record<string, string>>): string {
  const operations = operationsOf(document.paths);
  const webhooks = operationsOf(document.webhooks);
  const tagNames = [...(document.tags ?? []).map((tag) => tag.name)];
  for (const { operation } of operations) for (const tag of operation.tags ?? []) if (!tagNames.includes(tag)) tagNames.push(tag);
  const byTag = (name: string) => operations.filter(({ operation }) => (operation.tags ?? [])[0] === name);
  const untagged = operations.filter(({ operation }) => !operation.tags?.length);
  const groups = [...tagNames.map((name) => ({ name, entries: byTag(name) })), { name: 'other', entries: untagged }].filter(
    (group) => group.entries.length > 0,
  );
  const schemas = Object.entries(document.components?.schemas ?? {});

  const contents = groups.map(
    ({ name, entries }) =>
      `<li><a href="#${anchor('tag', name)}">${escapeHtml(name)}</a><ul>${entries.map((entry) => `<li>${operationLink(entry)}</li>`).join('')}</ul></li>`,
  );
  if (webhooks.length > 0) contents.push('<li><a href="#webhooks">Webhooks</a></li>');
  contents.push(`<li><a href="#schemas">Schemas</a> (${schemas.length})</li>`);

  return [
    `<header><h1>${escapeHtml(document.info.title)} <small>${escapeHtml(document.info.version)}</small></h1>`,
    document.info.summary ? `<p class="summary">${escapeHtml(document.info.summary)}</p>` : '',
    '</header>',
    `<nav aria-label="Contents"><h2>Contents</h2><ul>${contents.join('')}</ul></nav>`,
    `<section id="introduction">${markdownHtml(document.info.description, 1)}${serversHtml(document)}${securityHtml(document)}</section>`,
    ...groups.map(({ name, entries }) => {
      const description = document.tags?.find((tag) => tag.name === name)?.description;
      return `<section id="${anchor('tag', name)}"><h2>${escapeHtml(name)}</h2>${markdownHtml(description)}${entries.map((entry) => operationHtml(document, entry, samples)).join('')}</section>`;
    }),
    webhooks.length > 0
      ? `<section id="webhooks"><h2>Webhooks</h2><p>Requests this server sends to yours.</p>${webhooks.map((entry) => operationHtml(document, entry, samples)).join('')}</section>`
      : '',
    `<section id="schemas"><h2>Schemas</h2>${schemas
      .map(
        ([name, schema]) =>
          `<section class="schema" id="${escapeHtml(schemaAnchor(name))}"><h3>${escapeHtml(name)}</h3><p>Type: ${typeHtml(schema)}</p>${schemaHtml(schema)}</section>`,
      )
      .join('')}</section>`,
  ]
    .filter(Boolean)
    .join('\n');
}

function anchor(kind: 'tag' | 'operation' | 'webhook', name: string): string {
  return escapeHtml(`${kind}-${name}`);
}

function operationAnchor({ key, method, operation }: OperationEntry): string {
  return operation.operationId ? anchor('operation', operation.operationId) : anchor('webhook', `${key}-${method}`);
}

function operationLink(entry: OperationEntry): string {
  const label = `${entry.method.toUpperCase()} ${entry.key}`;
  return `<a href="#${operationAnchor(entry)}"><code>${escapeHtml(label)}</code></a> ${escapeHtml(entry.operation.summary ?? '')}`;
}

function operationHtml(document: OpenApiDocument, entry: OperationEntry, samples: Readonly<Record<string, string>>): string {
  const { key, method, pathItem, operation } = entry;
  const facts = [
    operation.operationId && `operation <code>${escapeHtml(operation.operationId)}</code>`,
    typeof operation['x-required-role'] === 'string' && `minimum role <code>${escapeHtml(operation['x-required-role'])}</code>`,
    typeof operation['x-required-feature'] === 'string' && `feature <code>${escapeHtml(operation['x-required-feature'])}</code>`,
    operation['x-api-key'] === true && 'accepts an API key',
    operation.security?.length === 0 && 'no credentials',
    operation.deprecated && 'deprecated',
  ].filter(Boolean);
  const parameters = [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])].map((p) => resolve(document, p));
  const sample = operation.operationId ? samples[operation.operationId] : undefined;
  return [
    `<section class="operation" id="${operationAnchor(entry)}">`,
    `<h3><span class="method">${escapeHtml(method.toUpperCase())}</span> <code>${escapeHtml(key)}</code></h3>`,
    `<p class="summary">${escapeHtml(operation.summary ?? '')}</p>`,
    facts.length > 0 ? `<p class="facts">${facts.join(' · ')}</p>` : '',
    markdownHtml(operation.description, 3),
    parameters.length > 0 ? `<h4>Parameters</h4>${parametersHtml(parameters)}` : '',
    requestBodyHtml(document, operation.requestBody),
    sample ? `<h4>With the SDK</h4><pre class="sample"><code>${escapeHtml(sample)}</code></pre>` : '',
    `<h4>Responses</h4>${Object.entries(operation.responses ?? {})
      .map(([status, response]) => responseHtml(document, status, response, problemCodes(operation, status)))
      .join('')}`,
    '</section>',
  ]
    .filter(Boolean)
    .join('\n');
}

function parametersHtml(parameters: ParameterObject[]): string {
  const rows = parameters.map(
    (p) =>
      `<tr><td><code>${escapeHtml(p.name)}</code>${p.required ? ' <span class="required">required</span>' : ''}</td><td>${escapeHtml(p.in)}</td><td>${typeHtml(p.schema)}</td><td>${markdownHtml(p.description)}</td></tr>`,
  );
  return `<table class="fields"><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Description</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function requestBodyHtml(document: OpenApiDocument, reference: OperationEntry['operation']['requestBody']): string {
  if (!reference) return '';
  const body = resolve(document, reference);
  const media = Object.entries(body.content ?? {}).map(
    ([type, { schema, ...examples }]) =>
      `<p><code>${escapeHtml(type)}</code>: ${typeHtml(schema)}</p>${schema ? bodySchemaHtml(document, schema) : ''}${examplesHtml(document, examples)}`,
  );
  return `<h4>Request body${body.required ? ' <span class="required">required</span>' : ' (optional)'}</h4>${markdownHtml(body.description)}${media.join('')}`;
}

/** The operation's own `x-problem-codes` for a status; the shared response's list applies otherwise. */
function problemCodes(operation: OperationObject, status: string): unknown {
  const codes = operation['x-problem-codes'];
  return typeof codes === 'object' && codes !== null ? (codes as Record<string, unknown>)[status] : undefined;
}

/** A request body's schema in full, with the schemas it combines one level down: its fields are what a caller writes. */
function bodySchemaHtml(document: OpenApiDocument, schema: SchemaObject): string {
  const resolved = resolve(document, schema);
  const members = [...(resolved.oneOf ?? []), ...(resolved.anyOf ?? []), ...(resolved.allOf ?? [])].filter((member) => member.$ref);
  const parts = members.map((member) => `<div class="member"><h5>${typeHtml(member)}</h5>${schemaHtml(resolve(document, member))}</div>`);
  return schemaHtml(resolved) + parts.join('');
}

function responseHtml(document: OpenApiDocument, status: string, reference: ResponseObject, operationCodes: unknown): string {
  const response = resolve(document, reference);
  // OpenAPI 3.1 lets a reference carry its own description, which then wins.
  const description = reference.description ?? response.description;
  const codes = operationCodes ?? response['x-problem-codes'];
  const headers = Object.entries(response.headers ?? {}).map(([name, header]) => {
    const resolved = resolve(document, header);
    return `<tr><td><code>${escapeHtml(name)}</code></td><td>${typeHtml(resolved.schema)}</td><td>${markdownHtml(resolved.description)}</td></tr>`;
  });
  const media = Object.entries(response.content ?? {}).map(
    ([type, { schema, ...examples }]) =>
      `<p><code>${escapeHtml(type)}</code>: ${typeHtml(schema)}</p>${schema && !schema.$ref ? schemaHtml(schema) : ''}${examplesHtml(document, examples)}`,
  );
  return [
    `<div class="response"><h5><span class="status">${escapeHtml(status)}</span></h5>`,
    markdownHtml(description),
    Array.isArray(codes) && codes.length > 0
      ? `<p class="codes">Problem codes: ${codes.map((code) => `<code>${escapeHtml(String(code))}</code>`).join(', ')}</p>`
      : '',
    headers.length > 0
      ? `<details><summary>Headers</summary><table class="fields"><tbody>${headers.join('')}</tbody></table></details>`
      : '',
    ...media,
    '</div>',
  ].join('');
}

function examplesHtml(document: OpenApiDocument, { example, examples }: Omit<MediaTypeObject, 'schema'>): string {
  const all: ExampleObject[] =
    example === undefined ? Object.values(examples ?? {}).map((e) => resolve(document, e)) : [{ summary: 'Example', value: example }];
  return all
    .map(({ summary, description, value }) => {
      const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
      return `<figure class="example"><figcaption>${escapeHtml(summary ?? 'Example')}</figcaption>${markdownHtml(description)}<pre><code>${escapeHtml(text)}</code></pre></figure>`;
    })
    .join('');
}

function serversHtml(document: OpenApiDocument): string {
  const servers = (document.servers ?? []).map((server) => {
    const variables = Object.entries(server.variables ?? {}).map(
      ([name, variable]) => `<li><code>${escapeHtml(`{${name}}`)}</code> (default <code>${escapeHtml(variable.default)}</code>)</li>`,
    );
    return `<li><code>${escapeHtml(server.url)}</code>${markdownHtml(server.description)}${variables.length > 0 ? `<ul>${variables.join('')}</ul>` : ''}</li>`;
  });
  return servers.length > 0 ? `<h3>Servers</h3><ul>${servers.join('')}</ul>` : '';
}

function securityHtml(document: OpenApiDocument): string {
  const schemes = Object.entries(document.components?.securitySchemes ?? {}).map(
    ([name, scheme]) =>
      `<h4><code>${escapeHtml(name)}</code>: ${escapeHtml([scheme.type, scheme.scheme, scheme.bearerFormat].filter(Boolean).join(' '))}</h4>${markdownHtml(scheme.description)}`,
  );
  return schemes.length > 0 ? `<h3>Security schemes</h3>${schemes.join('')}` : '';
}
