// A JSON Schema as HTML: its type in one line (`typeHtml`), its fields and rules as a block
// (`schemaHtml`). A `$ref` to a component schema is a link to that schema's section of the page.
import { escapeHtml, markdownHtml } from './markdown.js';
import { refName, type SchemaObject } from './openapi-objects.js';

const maxDepth = 8;

export function schemaAnchor(name: string): string {
  return `schema-${name}`;
}

export function typeHtml(schema: SchemaObject | undefined): string {
  if (!schema) return 'any';
  if (schema.$ref)
    return `<a href="#${escapeHtml(schemaAnchor(refName(schema.$ref)))}"><code>${escapeHtml(refName(schema.$ref))}</code></a>`;
  if ('const' in schema) return valueHtml(schema.const);
  if (schema.enum) return schema.enum.map(valueHtml).join(' | ');
  const composition = compositionOf(schema);
  // An object with fields of its own is an object; what it combines shows in its block.
  if (composition && !schema.properties) return composition.members.map(typeHtml).join(composition.kind === 'allOf' ? ' &amp; ' : ' | ');
  const types = [schema.type ?? 'any'].flat();
  return types
    .map((type) => {
      if (type === 'array') return `array of ${typeHtml(schema.items)}`;
      return schema.format && type !== 'null' ? `${escapeHtml(type)} (${escapeHtml(schema.format)})` : escapeHtml(type);
    })
    .join(' | ');
}

/** The schema's description (unless the caller shows it), rules, fields and alternatives. */
export function schemaHtml(schema: SchemaObject, { withDescription = true, depth = 0 } = {}): string {
  if (schema.$ref || depth > maxDepth) return '';
  const parts: string[] = [];
  if (withDescription) parts.push(markdownHtml(schema.description));
  const rules = rulesHtml(schema);
  if (rules) parts.push(`<p class="rules">${rules}</p>`);
  const valueDescriptions = schema['x-enumDescriptions'];
  if (typeof valueDescriptions === 'object' && valueDescriptions !== null) {
    const rows = Object.entries(valueDescriptions).map(
      ([value, text]) => `<tr><td><code>${escapeHtml(value)}</code></td><td>${markdownHtml(String(text))}</td></tr>`,
    );
    parts.push(`<table class="values"><thead><tr><th>Value</th><th>Meaning</th></tr></thead><tbody>${rows.join('')}</tbody></table>`);
  }
  if (schema.properties) parts.push(propertiesHtml(schema, depth));
  if (typeof schema.additionalProperties === 'object') {
    parts.push(
      `<p>Other fields: ${typeHtml(schema.additionalProperties)}</p>`,
      schemaHtml(schema.additionalProperties, { depth: depth + 1 }),
    );
  }
  const composition = compositionOf(schema);
  if (composition && (schema.properties || composition.members.some(isDetailed))) {
    const heading = { allOf: 'All of', oneOf: 'Exactly one of', anyOf: 'At least one of' }[composition.kind];
    const members = composition.members.map((member) => `<li>${typeHtml(member)}${schemaHtml(member, { depth: depth + 1 })}</li>`);
    parts.push(`<p>${heading}:</p><ul class="members">${members.join('')}</ul>`);
  }
  if (schema.discriminator) parts.push(`<p>Told apart by <code>${escapeHtml(schema.discriminator.propertyName)}</code>.</p>`);
  const items = schema.items;
  if (items && isDetailed(items)) parts.push(`<p>Each item:</p>${schemaHtml(items, { depth: depth + 1 })}`);
  return parts.filter(Boolean).join('\n');
}

function propertiesHtml(schema: SchemaObject, depth: number): string {
  const required = new Set(schema.required ?? []);
  const rows = Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const details = [markdownHtml(property.description), rulesHtml(property) && `<p class="rules">${rulesHtml(property)}</p>`];
    if (isDetailed(property)) details.push(schemaHtml(property, { withDescription: false, depth: depth + 1 }));
    return `<tr><td><code>${escapeHtml(name)}</code>${required.has(name) ? ' <span class="required">required</span>' : ''}</td><td>${typeHtml(property)}</td><td>${details.filter(Boolean).join('\n')}</td></tr>`;
  });
  return `<table class="fields"><thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** Inline objects, alternatives and arrays of them have more to show than their type. */
function isDetailed(schema: SchemaObject): boolean {
  if (schema.$ref) return false;
  return Boolean(
    schema.properties ||
      schema['x-enumDescriptions'] ||
      typeof schema.additionalProperties === 'object' ||
      compositionOf(schema)?.members.some((member) => !member.$ref) ||
      (schema.items && isDetailed(schema.items)),
  );
}

function compositionOf(schema: SchemaObject): { kind: 'allOf' | 'oneOf' | 'anyOf'; members: SchemaObject[] } | null {
  for (const kind of ['allOf', 'oneOf', 'anyOf'] as const) {
    const members = schema[kind];
    if (members) return { kind, members };
  }
  return null;
}

function rulesHtml(schema: SchemaObject): string {
  const rules: string[] = [];
  const range = (label: string, min: string, max: string) => {
    const [low, high] = [schema[min], schema[max]];
    if (low !== undefined && high !== undefined) rules.push(`${label} ${valueHtml(low)} to ${valueHtml(high)}`);
    else if (low !== undefined) rules.push(`${label} at least ${valueHtml(low)}`);
    else if (high !== undefined) rules.push(`${label} at most ${valueHtml(high)}`);
  };
  range('length', 'minLength', 'maxLength');
  range('value', 'minimum', 'maximum');
  range('items', 'minItems', 'maxItems');
  range('fields', 'minProperties', 'maxProperties');
  if (schema.exclusiveMinimum !== undefined) rules.push(`above ${valueHtml(schema.exclusiveMinimum)}`);
  if (schema.exclusiveMaximum !== undefined) rules.push(`below ${valueHtml(schema.exclusiveMaximum)}`);
  if (schema.pattern !== undefined) rules.push(`pattern ${valueHtml(schema.pattern)}`);
  if (schema.uniqueItems) rules.push('unique items');
  if (schema.additionalProperties === false) rules.push('no other fields');
  if (schema.default !== undefined) rules.push(`default ${valueHtml(schema.default)}`);
  if (schema.deprecated) rules.push('deprecated');
  const examples = schema.examples ?? (schema.example === undefined ? [] : [schema.example]);
  if (examples.length > 0) rules.push(`${examples.length > 1 ? 'examples' : 'example'} ${examples.map(valueHtml).join(', ')}`);
  return rules.join('; ');
}

function valueHtml(value: unknown): string {
  return `<code>${escapeHtml(JSON.stringify(value) ?? String(value))}</code>`;
}
