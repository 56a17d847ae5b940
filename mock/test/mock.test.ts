// The mock as a customer's test suite uses it: startMock() on a free port, requests over HTTP,
// answers from the contract's examples; invalid and credential-less requests get the documented
// problems; --dynamic answers with data generated from the schemas.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { type RunningMock, specPath, startMock } from '../src/index.js';

const spec = parse(readFileSync(specPath, 'utf8'));
const repoSpec = readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8');
const apiKey = { customer_id: 'acme', api_key: 'gck_Ab12Cd34_0123456789abcdefghijklmnopqrstuv' };
const bearer = { authorization: 'Bearer any-token' };
const validateExamples = spec.paths['/api/v1/validate'].post.requestBody.content['application/json'].examples;
const reviewExamples = spec.paths['/api/v1/history/{id}/review'].post.requestBody.content['application/json'].examples;
const validationId = 'val_01JD3X8Q5Z7M2N4P6R8T0V2W4Y';

function call(mock: RunningMock, path: string, body?: unknown, headers: Record<string, string> = {}) {
  return fetch(mock.url + path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
}

test('the package serves the contract it was built from', () => {
  assert.equal(readFileSync(specPath, 'utf8'), repoSpec, 'mock/dist/openapi.yaml is stale: npm run build -w @groundcheck/mock');
});

describe('examples', () => {
  let mock: RunningMock;
  before(async () => {
    mock = await startMock({ port: 0 });
  });
  after(() => mock.close());

  test('a validate request gets the example of its own mode', async () => {
    for (const [mode, example] of Object.entries<{ value: object }>(validateExamples)) {
      const response = await call(mock, '/api/v1/validate', { ...example.value, ...apiKey });
      assert.equal(response.status, 200, mode);
      assert.equal((await response.json()).mode, mode);
    }
  });

  test('a review request gets the record its action leaves', async () => {
    const states: Record<string, string> = {
      approve: 'approved',
      reject: 'rejected',
      edit: 'edited',
      handoff: 'handed_off',
      external_approve: 'external_approved',
      external_reject: 'external_rejected',
    };
    for (const [action, example] of Object.entries<{ value: object }>(reviewExamples)) {
      const response = await call(mock, `/api/v1/history/${validationId}/review`, example.value, bearer);
      assert.equal(response.status, 200, action);
      assert.equal((await response.json()).review.state, states[action]);
    }
  });

  test('Prefer picks a named example or a documented status', async () => {
    const generate = await call(
      mock,
      '/api/v1/validate',
      { ...validateExamples.validate.value, ...apiKey },
      { prefer: 'example=generate' },
    );
    assert.equal((await generate.json()).mode, 'generate');
    const notFound = await call(mock, '/api/v1/templates/tpl_01JD3XC4D5E6F7G8H9J0K1M2N3', {}, { ...bearer, prefer: 'code=404' });
    assert.equal(notFound.status, 404);
    assert.equal((await notFound.json()).code, 'not_found');
  });

  test('an invalid request gets the documented 400 problem', async () => {
    const response = await call(mock, '/api/v1/validate', { mode: 'validate', question: 'q?', ...apiKey });
    assert.equal(response.status, 400);
    assert.match(response.headers.get('content-type')!, /application\/problem\+json/);
    const problem = await response.json();
    assert.equal(problem.code, 'invalid_request');
    assert.equal(problem.status, 400);
  });

  test('a call with no credentials at all gets the documented 401, on API-key and bearer-only operations alike', async () => {
    for (const [path, body] of [
      ['/api/v1/validate', validateExamples.validate.value],
      ['/api/v1/sources', {}],
      ['/api/v1/saas/users', {}],
      ['/auth/me', undefined],
    ] as const) {
      const response = await call(mock, path, body ?? {});
      assert.equal(response.status, 401, path);
      assert.equal(response.headers.get('www-authenticate'), 'Bearer');
      const problem = await response.json();
      assert.deepEqual([problem.code, problem.instance], ['unauthenticated', path]);
    }
  });

  test('operations without credentials answer without any', async () => {
    assert.equal((await call(mock, '/healthz')).status, 200);
    const login = await call(mock, '/auth/login', {
      email: 'avery.admin@acme.example',
      password: 'correct-horse-battery-staple',
      customer_id: 'acme',
    });
    assert.equal(login.status, 200);
    assert.equal((await login.json()).token_type, 'Bearer');
  });

  test('a body over 1 MiB gets the documented 413', async () => {
    const response = await call(
      mock,
      '/api/v1/validate',
      JSON.stringify({ ...validateExamples.validate.value, inline_text: 'x'.repeat(1_100_000) }),
      bearer,
    );
    assert.equal(response.status, 413);
    assert.equal((await response.json()).code, 'payload_too_large');
  });
});

test('--dynamic generates responses that keep the schema', async () => {
  const mock = await startMock({ port: 0, dynamic: true, seed: 'groundcheck' });
  try {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema(JSON.parse(JSON.stringify(spec, (key, value) => (key === 'discriminator' ? undefined : value))), 'spec');
    const validate = ajv.compile({ $ref: 'spec#/components/schemas/SourceGroupList' });
    const response = await call(mock, '/api/v1/sources', {}, bearer);
    assert.equal(response.status, 200);
    const body = await response.json();
    assert.ok(validate(body), ajv.errorsText(validate.errors));
    assert.notDeepEqual(body, spec.components.examples.SourceGroupList.value);
  } finally {
    await mock.close();
  }
});

test('close() stops the mock and its Prism', async () => {
  const mock = await startMock({ port: 0 });
  await mock.close();
  await assert.rejects(fetch(`${mock.url}/healthz`));
});
