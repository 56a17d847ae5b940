// Prism's violations of a request (its `sl-violations` header) as the fields of the contract's 400
// `invalid_request` problem, listed as the reference server lists them (server/src/contract/
// validator.ts): invalid parameters first and alone (`path:id`, `header:<name>`), else the body's
// fields as JSON pointers (`/mode`, `/urls/0`). Prism checks a body against every shape of a
// discriminated `oneOf`; only the violations of the shape its tag picks are the body's, and a tag
// that picks none is the one error, as the server's discriminator reports it.
import { fieldWording } from '@groundcheck/contract';
import type { BodyShape, ObjectShape } from './contract.js';

export interface FieldError {
  pointer: string;
  detail: string;
}

/** One entry of Prism's `sl-violations` header. */
interface Violation {
  location: string[];
  severity: string;
  code: string;
  message: string;
}

/** The server lists at most this many fields; its detail gives the full count. */
const maxFieldErrors = 20;
const sizeDetail = /^must have at most \d+ (characters|items|fields)$/;
const unknownField = 'is not a known field';
const pointerSegment = (name: string) => name.replaceAll('~', '~0').replaceAll('/', '~1');
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The request's violations in Prism's header; none when it names none. */
export function requestViolations(header: string | string[] | undefined): Violation[] {
  if (typeof header !== 'string') return [];
  // Past 8 KB Prism cuts the list and says so; the entries before the cut are still whole.
  const text = header.startsWith('Too many violations! ') ? `${header.slice(21, header.lastIndexOf('},{') + 1)}]` : header;
  try {
    const parsed: unknown = JSON.parse(text);
    return (Array.isArray(parsed) ? (parsed as Violation[]) : []).filter((v) => v.severity === 'Error' && v.location?.[0] === 'request');
  } catch {
    return [];
  }
}

/** The `detail` and `errors` of the 400 problem for these violations of a request with this body. */
export function invalidRequest(violations: Violation[], shape: BodyShape | null, body: unknown): { detail: string; errors: FieldError[] } {
  const parameters = violations.filter((v) => ['path', 'header', 'query'].includes(v.location[1]!));
  if (parameters.length > 0) return listed('The request has', dedupe(parameters.map(parameterError)));
  return listed('The request body has', bodyErrors(violations, shape, body));
}

function listed(what: string, errors: FieldError[]) {
  const total = errors.length;
  const count = `${total} invalid field${total === 1 ? '' : 's'}`;
  const detail = total > maxFieldErrors ? `${what} ${count}; the first ${maxFieldErrors} are listed.` : `${what} ${count}.`;
  return { detail, errors: errors.slice(0, maxFieldErrors) };
}

function parameterError(violation: Violation): FieldError {
  const [, where, ...path] = violation.location;
  const named = (name: string) => `${where}:${where === 'header' ? name.toLowerCase() : name}`;
  const required = /must have required property '(.+)'$/.exec(violation.message);
  if (path.length === 0 && required) return { pointer: named(required[1]!), detail: 'is required' };
  return { pointer: named(path.join('.')), detail: ajvMessage(violation, `Request ${where} `, 'parameter') };
}

function bodyErrors(violations: Violation[], shape: BodyShape | null, body: unknown): FieldError[] {
  if (violations.some((v) => v.location.length === 1 && v.code === 'required')) return [{ pointer: '', detail: 'is required' }];
  const picked = pickShape(shape, body);
  if ('error' in picked) return [picked.error];
  const { object, tag } = picked;
  const alternatives = object?.alternatives ?? [];
  const alternativeFields = new Set(alternatives.flat().filter((field) => !object?.required.includes(field)));
  const { errors, alternativesAt } = pickedShapeErrors(violations, object, tag, alternativeFields);
  const anyOf = anyOfError(alternatives, body);
  if (anyOf) errors.splice(Math.max(alternativesAt, 0), 0, anyOf);
  // A field every shape of a oneOf declares has its violation once per shape.
  return boundsFirst(dedupe(errors), object, body);
}

/**
 * The errors of the violations of the picked shape, less those of its `anyOf`, and where among them
 * the first of those was (-1: none was).
 */
function pickedShapeErrors(
  violations: Violation[],
  object: ObjectShape | null,
  tag: string | null,
  alternativeFields: Set<string>,
): { errors: FieldError[]; alternativesAt: number } {
  const errors: FieldError[] = [];
  let alternativesAt = -1;
  for (const violation of violations) {
    const path = violation.location.slice(2);
    const error = bodyError(violation, path);
    const field = error.pointer.split('/')[1] ?? '';
    const atRoot = path.length === 0;
    if (atRoot && (violation.code === 'anyOf' || (violation.code === 'required' && alternativeFields.has(field)))) {
      if (alternativesAt < 0) alternativesAt = errors.length;
      continue;
    }
    if (tag !== null && !belongsTo(violation, object!, tag, field, atRoot)) continue;
    errors.push(error);
  }
  return { errors, alternativesAt };
}

/**
 * As the server: an `anyOf` is one error when every alternative lacks a field, and none when one
 * alternative is there (its own violations, if any, are listed).
 */
function anyOfError(alternatives: string[][], body: unknown): FieldError | null {
  const missing = alternatives.map((fields) => fields.filter((field) => !Object.hasOwn(body as object, field)));
  if (alternatives.length === 0 || !missing.every((fields) => fields.length > 0)) return null;
  const named = [...new Set(missing.flat())];
  return { pointer: '', detail: `needs at least one of: ${named.join(', ')}` };
}

/**
 * The server checks the size keywords first (body-bounds.ts) and lists only those when any fails;
 * so too the unknown fields of a closed body with more fields than it declares.
 */
function boundsFirst(errors: FieldError[], object: ObjectShape | null, body: unknown): FieldError[] {
  const tooMany = object?.closed === true && Object.keys(body as object).length > object.properties.length;
  const bounds = errors.filter((error) => sizeDetail.test(error.detail) || (tooMany && error.detail === unknownField && isTopLevel(error)));
  return bounds.length > 0 ? bounds : errors;
}

/** The shape a body takes: the one its tag picks, or the error of a tag that picks none. */
function pickShape(shape: BodyShape | null, body: unknown): { object: ObjectShape | null; tag: string | null } | { error: FieldError } {
  if (!shape || !isObject(body)) return { object: null, tag: null };
  if (shape.tag === null) return { object: shape.shape, tag: null };
  const value = body[shape.tag];
  if (typeof value === 'string' && Object.hasOwn(shape.shapes, value)) return { object: shape.shapes[value]!, tag: shape.tag };
  // The server says `undefined is not a known mode` for a missing tag; here it is required (decision S81).
  const detail = value === undefined ? 'is required' : `${JSON.stringify(value)} is not a known ${shape.tag}`;
  return { error: { pointer: `/${pointerSegment(shape.tag)}`, detail } };
}

/** Whether a violation is one of the picked shape's, not of a shape the tag did not pick. */
function belongsTo(violation: Violation, shape: ObjectShape, tag: string, field: string, atRoot: boolean): boolean {
  if (violation.code === 'oneOf' && atRoot) return false;
  if (field === tag) return false;
  if (atRoot && violation.code === 'required') return shape.required.includes(field);
  if (atRoot && violation.code === 'additionalProperties') return !shape.properties.includes(field);
  return shape.properties.includes(field);
}

const isTopLevel = (error: FieldError) => /^\/[^/]+$/.test(error.pointer);

function bodyError(violation: Violation, path: string[]): FieldError {
  const at = path.map((segment) => `/${segment}`).join('');
  const named = /(?:must have required property|found) '(.+)'$/.exec(violation.message)?.[1];
  if (violation.code === 'required' && named) return { pointer: `${at}/${pointerSegment(named)}`, detail: 'is required' };
  if (violation.code === 'additionalProperties' && named) return { pointer: `${at}/${pointerSegment(named)}`, detail: unknownField };
  return { pointer: at, detail: ajvMessage(violation, 'Request body ', 'property') };
}

/** Ajv's message, without the sentence Prism wraps it in, in the server's words (fieldWording). */
function ajvMessage(violation: Violation, prefix: string, kind: string): string {
  const path = violation.location.slice(2);
  const lead = `${prefix}${path.length > 0 ? `${kind} ${path.join('.')} ` : ''}`;
  const message = violation.message.startsWith(lead) ? violation.message.slice(lead.length) : violation.message;
  return fieldWording(message);
}

function dedupe(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errors.filter((error) => !seen.has(`${error.pointer} ${error.detail}`) && seen.add(`${error.pointer} ${error.detail}`));
}
