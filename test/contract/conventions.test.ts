import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { OpenAPIV3_1 } from 'openapi-types';
import { dereferencedSpec, operations, rawSpec, type Spec } from '../support/spec.js';

const tags = ['auth', 'validation', 'templates', 'sources', 'history', 'analytics', 'audit', 'engine', 'saas', 'account', 'health'];
const roles = ['none', 'viewer', 'user', 'admin'];
const features = ['document_templates', 'audit_trail'];
type Schema = OpenAPIV3_1.SchemaObject;

let spec: Spec;
before(async () => {
  spec = await dereferencedSpec();
});

const apiOperations = () => operations(spec).filter(({ operation }) => !operation.tags?.includes('health'));

function jsonSchemaValidator() {
  // OpenAPI 3.1 schemas are JSON Schema 2020-12 plus a few annotation keywords.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats.default(ajv);
  ajv.addKeyword({ keyword: 'discriminator' });
  return ajv;
}

describe('operations', () => {
  test('each has a unique operationId, one known tag and a summary', () => {
    const ids = new Set<string>();
    for (const { path, operation } of operations(spec)) {
      assert.ok(operation.operationId, path);
      assert.ok(!ids.has(operation.operationId), `duplicate operationId ${operation.operationId}`);
      ids.add(operation.operationId);
      assert.equal(operation.tags?.length, 1, path);
      assert.ok(tags.includes(operation.tags[0]!), `${path}: unknown tag ${operation.tags[0]}`);
      assert.ok(operation.summary && operation.description, path);
    }
    assert.deepEqual([...new Set(operations(spec).map((o) => o.operation.tags![0]))].sort(), tags.slice().sort());
  });

  test('each names its minimum role, feature and credentials in extensions and in its description', () => {
    for (const { path, operation } of apiOperations()) {
      const role = operation['x-required-role'];
      assert.ok(role && roles.includes(role), `${path}: x-required-role`);
      assert.equal(typeof operation['x-api-key'], 'boolean', `${path}: x-api-key`);
      const description = operation.description ?? '';
      if (role !== 'none') assert.match(description, new RegExp(`Minimum role: \`${role}\``), path);
      assert.match(
        description,
        operation['x-api-key'] ? /Credentials: bearer token or API key/ : /Credentials: (bearer token only|none)/,
        path,
      );
      const feature = operation['x-required-feature'];
      if (feature) {
        assert.ok(features.includes(feature), path);
        assert.match(description, new RegExp(`Feature: \`${feature}\``), path);
      }
    }
  });

  test('template operations are admin-only and need document_templates; audit ones need audit_trail', () => {
    for (const { path, operation } of apiOperations()) {
      if (path.startsWith('/api/v1/templates')) {
        assert.equal(operation['x-required-role'], 'admin', path);
        assert.equal(operation['x-required-feature'], 'document_templates', path);
      }
      if (['/api/v1/audit', '/api/v1/audit/export', '/api/v1/system-card'].includes(path)) {
        assert.equal(operation['x-required-feature'], 'audit_trail', path);
      }
    }
  });

  test('operations that take an API key accept it as optional body fields; the others reject it', () => {
    for (const { path, operation } of apiOperations()) {
      if (path === '/auth/login') continue;
      const body = (operation.requestBody as OpenAPIV3_1.RequestBodyObject | undefined)?.content['application/json']?.schema as
        | Schema
        | undefined;
      assert.ok(body, `${path} has a JSON body`);
      const variants = (body.oneOf as Schema[] | undefined) ?? [body];
      for (const variant of variants) {
        const props = variant.properties ?? {};
        assert.equal('api_key' in props && 'customer_id' in props, operation['x-api-key'], path);
        assert.ok(!variant.required?.includes('api_key'), path);
        assert.equal(variant.additionalProperties, false, `${path}: request bodies reject unknown fields`);
      }
      const security = operation.security ?? spec.security;
      assert.ok(
        security?.some((s) => 'bearerAuth' in s),
        path,
      );
      assert.equal(
        security?.some((s) => Object.keys(s).length === 0),
        operation['x-api-key'],
        `${path}: header auth is optional exactly when an API key may be sent`,
      );
    }
  });

  test('each documents its errors as RFC 9457 problems', () => {
    for (const { path, operation } of apiOperations()) {
      const statuses = Object.keys(operation.responses ?? {});
      const expected = path === '/auth/login' ? ['400', '401', '413', '429', '500'] : ['400', '401', '413', '429', '500'];
      if (operation['x-required-role'] !== 'none' && path !== '/auth/me') expected.push('403');
      for (const status of expected) assert.ok(statuses.includes(status), `${path} documents ${status}`);
      for (const status of statuses.filter((s) => s >= '400')) {
        const response = operation.responses![status] as OpenAPIV3_1.ResponseObject;
        const schema = response.content?.['application/problem+json']?.schema as Schema | undefined;
        assert.ok(schema, `${path} ${status} is application/problem+json`);
        assert.deepEqual(schema.required, ['type', 'title', 'status', 'code', 'request_id'], `${path} ${status}`);
        assert.ok(schema.properties?.errors, `${path} ${status} lists field errors`);
      }
    }
  });

  test('paths with an id take a prefixed id whose pattern no sibling path segment can match', () => {
    const patterns: Record<string, string> = {};
    for (const [path, item] of Object.entries(spec.paths ?? {})) {
      for (const parameter of (item?.parameters ?? []) as OpenAPIV3_1.ParameterObject[]) {
        if (parameter.in === 'path') patterns[path] = (parameter.schema as Schema).pattern!;
      }
    }
    assert.ok(Object.keys(patterns).length >= 5, 'id paths found');
    const segments = Object.keys(spec.paths!)
      .flatMap((p) => p.split('/'))
      .filter((s) => s && !s.startsWith('{'));
    for (const [path, pattern] of Object.entries(patterns)) {
      assert.match(pattern, /^\^[a-z]+_/, path);
      for (const segment of segments) assert.doesNotMatch(segment, new RegExp(pattern), `${path} vs ${segment}`);
    }
  });
});

describe('request bounds', () => {
  /** Every unbounded string, array and integer a request may carry, with the path that reaches it. */
  function* unbounded(schema: Schema | undefined, at: string, seen: Set<Schema>): Generator<string> {
    if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
    seen.add(schema);
    const types = ([] as unknown[]).concat(schema.type ?? []);
    if (types.includes('array') && schema.maxItems === undefined) yield `${at}: array without maxItems`;
    if (types.includes('string') && schema.maxLength === undefined && schema.enum === undefined && schema.const === undefined)
      yield `${at}: string without maxLength`;
    if (types.includes('integer') && (schema.minimum === undefined || schema.maximum === undefined))
      yield `${at}: integer without minimum and maximum`;
    for (const key of ['allOf', 'oneOf', 'anyOf'] as const)
      for (const [i, part] of (schema[key] ?? []).entries()) yield* unbounded(part as Schema, `${at}/${key}/${i}`, seen);
    if ('items' in schema) yield* unbounded(schema.items as Schema, `${at}/items`, seen);
    for (const [name, property] of Object.entries(schema.properties ?? {})) yield* unbounded(property as Schema, `${at}/${name}`, seen);
    if (typeof schema.additionalProperties === 'object') yield* unbounded(schema.additionalProperties as Schema, `${at}/*`, seen);
  }

  test('every string, array and integer of every request body and parameter has bounds', () => {
    const found: string[] = [];
    for (const { path, operation } of operations(spec)) {
      const body = (operation.requestBody as OpenAPIV3_1.RequestBodyObject | undefined)?.content?.['application/json']?.schema as
        | Schema
        | undefined;
      found.push(...unbounded(body, operation.operationId!, new Set()));
      for (const parameter of [
        ...(spec.paths![path]!.parameters ?? []),
        ...(operation.parameters ?? []),
      ] as OpenAPIV3_1.ParameterObject[]) {
        found.push(...unbounded(parameter.schema as Schema, `${operation.operationId}:${parameter.name}`, new Set()));
      }
    }
    assert.deepEqual(found, []);
  });
});

describe('examples', () => {
  function* mediaExamples() {
    for (const { path, operation } of operations(spec)) {
      const body = operation.requestBody as OpenAPIV3_1.RequestBodyObject | undefined;
      for (const [type, media] of Object.entries(body?.content ?? {})) yield { where: `${path} request ${type}`, media };
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        for (const [type, media] of Object.entries((response as OpenAPIV3_1.ResponseObject).content ?? {})) {
          yield { where: `${path} ${status} ${type}`, status, type, media };
        }
      }
    }
    for (const [name, item] of Object.entries(spec.webhooks ?? {})) {
      const body = (item as OpenAPIV3_1.PathItemObject).post?.requestBody as OpenAPIV3_1.RequestBodyObject;
      for (const [type, media] of Object.entries(body.content)) yield { where: `webhook ${name} ${type}`, media };
    }
  }
  const valuesOf = (media: OpenAPIV3_1.MediaTypeObject) =>
    media.example !== undefined ? [media.example] : Object.values(media.examples ?? {}).map((e) => (e as OpenAPIV3_1.ExampleObject).value);

  test('every request body and every 200 response has an example (binary downloads excepted)', () => {
    for (const { where, status, type, media } of mediaExamples()) {
      if (status && status !== '200') continue;
      if (type === 'application/zip') continue;
      assert.ok(valuesOf(media).length > 0, `${where} has an example`);
    }
  });

  test('every example is valid against its schema', () => {
    const ajv = jsonSchemaValidator();
    let checked = 0;
    for (const { where, media } of mediaExamples()) {
      if (!media.schema) continue;
      const validate = ajv.compile(media.schema as object);
      for (const value of valuesOf(media)) {
        assert.ok(validate(value), `${where}: ${ajv.errorsText(validate.errors)}`);
        checked += 1;
      }
    }
    assert.ok(checked > 60, `checked ${checked} examples`);
  });
});

describe('validate', () => {
  const schemas = () => rawSpec().components!.schemas! as Record<string, Schema>;

  test('the request is a oneOf over the three modes with an explicit discriminator mapping', () => {
    const request = schemas().ValidationRequest!;
    assert.equal(request.oneOf?.length, 3);
    assert.deepEqual(Object.keys(request.discriminator?.mapping ?? {}).sort(), ['generate', 'validate', 'validate_and_fix']);
    assert.deepEqual(schemas().ValidateModeRequest!.required, ['mode', 'question', 'chatbot_response']);
    assert.deepEqual(schemas().ValidateAndFixModeRequest!.required, ['mode', 'question', 'chatbot_response']);
    assert.deepEqual(schemas().GenerateModeRequest!.required, ['mode', 'question']);
  });

  test('the request needs at least one source', () => {
    const ajv = jsonSchemaValidator();
    const validate = ajv.compile(spec.components!.schemas!.ValidationRequest as object);
    const base = { mode: 'validate', question: 'q?', chatbot_response: 'a.' };
    assert.equal(validate(base), false);
    assert.equal(validate({ ...base, source_groups: [] }), false);
    assert.equal(validate({ ...base, inline_text: 'source' }), true);
    assert.equal(validate({ ...base, urls: ['https://example.com/a'] }), true);
    assert.equal(validate({ mode: 'generate', question: 'q?', chatbot_response: 'a.', inline_text: 's' }), false);
    assert.equal(validate({ mode: 'validate_and_fix', question: 'q?', inline_text: 's' }), false);
  });

  test('the response carries what every mode must return', () => {
    const common = schemas().ValidationCommon!;
    for (const field of [
      'validation_id',
      'created_at',
      'claims',
      'findings',
      'issues',
      'issue_count',
      'severity',
      'confidence_level',
      'source_conflict_count',
      'sources',
      'metadata',
      'review',
      'rate_limit',
    ]) {
      assert.ok(common.required?.includes(field), field);
    }
    assert.deepEqual(schemas().Claim!.required, ['text', 'start', 'end', 'status', 'score', 'evidence']);
    assert.deepEqual(schemas().Finding!.required, ['category', 'status', 'title', 'description', 'severity']);
    assert.deepEqual(schemas().RateLimit!.required, ['limit', 'remaining', 'reset']);
    assert.ok(schemas().ValidationMetadata!.required?.includes('source_access_filtered'));
    assert.deepEqual(schemas().SourceUsed!.required, ['source_id', 'kind', 'reference', 'sha256']);
  });
});

test('the webhook payload has every field of section 6.1 and an event_id', () => {
  const event = rawSpec().components!.schemas!.ValidationFindingsEvent as Schema;
  const fields = [
    'event_type',
    'timestamp',
    'customer_id',
    'customer_name',
    'validation_id',
    'mode',
    'question',
    'severity',
    'confidence_level',
    'issue_count',
    'issues',
    'findings',
    'user_corrections',
    'source_conflict_count',
    'output_excerpt',
    'user',
  ];
  for (const field of [...fields, 'event_id']) assert.ok(event.required?.includes(field), field);
  assert.ok((rawSpec().webhooks!['service.validation.findings'] as OpenAPIV3_1.PathItemObject).post);
});
