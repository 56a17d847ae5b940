// The size keywords of a request schema (maxItems, maxLength, maxProperties, unknown fields),
// checked before the full validation. Full JSON Schema validation with every error collected costs
// time in the size of the input (uniqueItems is quadratic, and each oversized item or unknown key
// yields an error object); checked first, these keywords stop an oversized array, string or object
// before anything looks inside it, so the cost of validating any body stays bounded by the schema.
import type { FieldError } from '@groundcheck/contract';

type Schema = Record<string, unknown>;
type Resolve = (ref: string) => Schema;

/** The first errors found, at most `limit`, and the count of all; past the limit none is built. */
export class BoundsReport {
  readonly errors: FieldError[] = [];
  total = 0;

  constructor(private readonly limit: number) {}

  add(pointer: () => string, detail: string): void {
    this.total += 1;
    if (this.errors.length < this.limit) this.errors.push({ pointer: pointer(), detail });
  }

  /** Counts `count` unknown fields but looks for only as many of them as the report lists. */
  unknownFields(count: number, keys: string[], unknown: (key: string) => boolean, at: (key: string) => string): void {
    for (let i = 0; i < keys.length && this.errors.length < this.limit; i += 1) {
      if (unknown(keys[i]!)) this.errors.push({ pointer: at(keys[i]!), detail: 'is not a known field' });
    }
    this.total += count;
  }
}

export function checkBounds(schema: Schema, data: unknown, resolve: Resolve, limit: number): BoundsReport {
  const report = new BoundsReport(limit);
  walk(schema, data, '', resolve, report);
  return report;
}

function walk(schema: Schema, data: unknown, pointer: string, resolve: Resolve, report: BoundsReport): void {
  if (typeof schema.$ref === 'string') {
    walk(resolve(schema.$ref), data, pointer, resolve, report);
    return;
  }
  for (const part of (schema.allOf as Schema[] | undefined) ?? []) walk(part, data, pointer, resolve, report);
  const branch = discriminatedBranch(schema, data, resolve);
  if (branch) walk(branch, data, pointer, resolve, report);

  if (typeof data === 'string' && typeof schema.maxLength === 'number' && data.length > schema.maxLength) {
    if (codePointsOver(data, schema.maxLength)) report.add(() => pointer, `must have at most ${schema.maxLength} characters`);
    return;
  }
  if (Array.isArray(data)) walkArray(schema, data, pointer, resolve, report);
  else if (data && typeof data === 'object') walkObject(schema, data as Record<string, unknown>, pointer, resolve, report);
}

function walkArray(schema: Schema, data: unknown[], pointer: string, resolve: Resolve, report: BoundsReport): void {
  if (typeof schema.maxItems === 'number' && data.length > schema.maxItems) {
    report.add(() => pointer, `must have at most ${schema.maxItems} items`);
    return;
  }
  const items = schema.items as Schema | undefined;
  if (items && typeof items === 'object') for (const [i, item] of data.entries()) walk(items, item, `${pointer}/${i}`, resolve, report);
}

function walkObject(schema: Schema, data: Record<string, unknown>, pointer: string, resolve: Resolve, report: BoundsReport): void {
  const keys = Object.keys(data);
  if (typeof schema.maxProperties === 'number' && keys.length > schema.maxProperties) {
    report.add(() => pointer, `must have at most ${schema.maxProperties} fields`);
    return;
  }
  const properties = (schema.properties as Record<string, Schema> | undefined) ?? {};
  const at = (key: string) => `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
  // A closed object with more keys than it declares holds unknown ones; a few are left to the full
  // validation, which lists them with the other errors, but this many would each cost an error.
  if (schema.additionalProperties === false && schema.properties && keys.length > Object.keys(properties).length) {
    const known = Object.keys(properties).filter((key) => Object.hasOwn(data, key)).length;
    report.unknownFields(keys.length - known, keys, (key) => !Object.hasOwn(properties, key), at);
    return;
  }
  const additional = schema.additionalProperties;
  for (const key of keys) {
    if (Object.hasOwn(properties, key)) walk(properties[key]!, data[key], at(key), resolve, report);
    else if (additional && typeof additional === 'object') walk(additional as Schema, data[key], at(key), resolve, report);
  }
}

/** The oneOf branch a discriminator selects, when the tag is present and mapped; otherwise none. */
function discriminatedBranch(schema: Schema, data: unknown, resolve: Resolve): Schema | null {
  const discriminator = schema.discriminator as { propertyName: string; mapping?: Record<string, string> } | undefined;
  if (!discriminator?.mapping || !data || typeof data !== 'object' || Array.isArray(data)) return null;
  const tag = (data as Record<string, unknown>)[discriminator.propertyName];
  if (typeof tag !== 'string' || !Object.hasOwn(discriminator.mapping, tag)) return null;
  return resolve(discriminator.mapping[tag]!);
}

/**
 * JSON Schema counts code points. UTF-16 length is at most twice that, so most strings are decided
 * by their length alone; the rest are counted without building an array of characters.
 */
function codePointsOver(text: string, max: number): boolean {
  if (text.length <= max) return false;
  if (text.length > 2 * max) return true;
  let count = 0;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i += 1;
    }
    count += 1;
    if (count > max) return true;
  }
  return false;
}
