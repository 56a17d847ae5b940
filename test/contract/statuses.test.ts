// Every status the reference server can send is declared where it can be sent, so a validating
// proxy (Prism's) or a generated client meets no undeclared answer.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { OpenAPIV3_1 } from 'openapi-types';
import * as errors from '../../server/src/errors.js';
import { startTestServer, type TestServer } from '../../server/test/support/harness.js';
import { operations, rawSpec } from '../support/spec.js';

type Response = OpenAPIV3_1.ResponseObject | OpenAPIV3_1.ReferenceObject;
const spec = rawSpec();
const apiOperations = operations(spec).filter(({ operation }) => !operation.tags?.includes('health'));
const declared = (responses: Record<string, Response> | undefined) => Object.keys(responses ?? {});

/** The shared response each status refers to: one name per status, its example of that status. */
const sharedResponses: Record<string, string[]> = {
  '400': ['BadRequest'],
  '401': ['Unauthorized', 'InvalidCredentials'],
  '403': ['Forbidden'],
  '404': ['NotFound'],
  '408': ['RequestTimeout'],
  '409': ['Conflict'],
  '413': ['PayloadTooLarge'],
  '415': ['UnsupportedMediaType'],
  '429': ['TooManyRequests'],
  '431': ['HeadersTooLarge'],
  '500': ['InternalError'],
  '501': ['NotImplemented'],
  '503': ['ServiceUnavailable'],
};

describe('declared statuses', () => {
  test('every operation that takes a body declares what the HTTP layer and the pipeline may answer', () => {
    // Parser limits (408, 431), body reading (400, 413, 415), authentication (401), rate limits (429),
    // the data store (503) and the unexpected (500) apply to any operation; 403 to all but the
    // lowest rung (viewer, API key accepted, no feature).
    for (const { path, operation } of apiOperations) {
      const expected = ['400', '401', '408', '413', '415', '429', '431', '500', '503'];
      const open = operation['x-required-role'] === 'viewer' && operation['x-api-key'] && !operation['x-required-feature'];
      if (operation['x-required-role'] !== 'none' && !open) expected.push('403');
      for (const status of expected) assert.ok(declared(operation.responses).includes(status), `${path} declares ${status}`);
    }
  });

  test('each error status refers to the shared response of that status, whose example has that status', () => {
    const components = spec.components!.responses! as Record<string, OpenAPIV3_1.ResponseObject>;
    for (const { path, operation } of operations(spec)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (status < '400' || path === '/readyz') continue;
        const ref = (response as OpenAPIV3_1.ReferenceObject).$ref ?? '';
        const name = ref.replace('#/components/responses/', '');
        assert.ok(sharedResponses[status]?.includes(name), `${path} ${status} refers to ${ref || 'an inline response'}`);
        const media = components[name]!.content!['application/problem+json']!;
        const examples = media.example
          ? [media.example]
          : Object.values(media.examples ?? {}).map((e) => (e as OpenAPIV3_1.ExampleObject).value);
        for (const example of examples as { status: number }[]) assert.equal(String(example.status), status, `${name} example`);
      }
    }
  });

  test('every status of the server error classes is declared somewhere, except 405 (not an operation of the path)', () => {
    const all = new Set(operations(spec).flatMap(({ operation }) => declared(operation.responses)));
    for (const [name, value] of Object.entries(errors)) {
      if (typeof value !== 'function' || !(value.prototype instanceof errors.ApiError)) continue;
      // One argument list that every error class's constructor accepts.
      const error = Reflect.construct(value, [['GET'], 'detail', 1]) as errors.ApiError;
      if (error.status === 405) continue;
      // 501 is declared only by the operations the server does not serve yet (next test).
      if (error.status === 501) continue;
      assert.ok(all.has(String(error.status)), `${name} (${error.status}) is declared by some operation`);
    }
  });
});

describe('served operations', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test('the reference server serves every operation of the contract, or the operation declares 501', () => {
    for (const { path, operation } of operations(spec)) {
      const served = Object.hasOwn(server.container.operations, operation.operationId!);
      assert.ok(served || declared(operation.responses).includes('501'), `${operation.operationId} (${path}) is served or declares 501`);
    }
  });
});
