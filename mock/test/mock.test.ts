// The mock as a customer's test suite uses it: startMock() on a free port, requests over HTTP,
// answers from the contract's examples; invalid and credential-less requests get the documented
// problems, listing the request's own faults; a replay is marked only when a key is sent again;
// every call has its own request id; pages end; results name the engine the package was built
// with; --dynamic answers with data generated from the schemas.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { deterministicEngine } from '../../server/src/engine/version.js';
import { type RunningMock, specPath, startMock } from '../src/index.js';

const spec = parse(readFileSync(specPath, 'utf8'));
const repoSpec = readFileSync(new URL('../../contract/openapi.yaml', import.meta.url), 'utf8');
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

test('the build carries the engine version and imports no server code', () => {
  const dist = new URL('../dist/', import.meta.url);
  const code = readdirSync(dist)
    .filter((file) => /\.c?js$/.test(file))
    .map((file) => readFileSync(new URL(file, dist), 'utf8'))
    .join('\n');
  assert.ok(code.includes(JSON.stringify(deterministicEngine.version)), 'mock/dist is stale: npm run build -w @groundcheck/mock');
  // tsup notes where the copy came from in a comment; no import or require reaches outside the package.
  assert.doesNotMatch(code, /(?:from|import\(|require\()\s*['"][^'"]*server\//);
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

  test("an invalid request gets the documented 400 problem, listing the request's own faults", async () => {
    const response = await call(mock, '/api/v1/validate', { mode: 'validate', question: 'q?', ...apiKey });
    assert.equal(response.status, 400);
    assert.match(response.headers.get('content-type')!, /application\/problem\+json/);
    const problem = await response.json();
    assert.deepEqual(
      [problem.type, problem.title, problem.status, problem.code, problem.instance],
      ['https://groundcheck.dev/problems/invalid_request', 'Invalid request', 400, 'invalid_request', '/api/v1/validate'],
    );
    assert.equal(problem.detail, 'The request body has 2 invalid fields.');
    assert.deepEqual(problem.errors, [
      { pointer: '', detail: 'needs at least one of: source_groups, urls, inline_text' },
      { pointer: '/chatbot_response', detail: 'is required' },
    ]);
    // The request: an unknown mode is the fault (as on the server, the shape it would pick is not checked).
    const mode = await (
      await call(mock, '/api/v1/validate', { ...validateExamples.validate.value, mode: 'validated', extra: 1 }, bearer)
    ).json();
    assert.deepEqual(mode.errors, [{ pointer: '/mode', detail: '"validated" is not a known mode' }]);
    const extra = await (await call(mock, '/api/v1/validate', { ...validateExamples.validate.value, extra: 1 }, bearer)).json();
    assert.deepEqual(extra.errors, [{ pointer: '/extra', detail: 'is not a known field' }]);
    const path = await (await call(mock, '/api/v1/history/val_x/review', reviewExamples.approve.value, bearer)).json();
    assert.deepEqual([path.detail, path.errors[0].pointer], ['The request has 1 invalid field.', 'path:id']);
    const malformed = await call(mock, '/api/v1/history', '{"mode":', bearer);
    assert.deepEqual([malformed.status, (await malformed.json()).code], [400, 'malformed_json']);
  });

  test('Idempotent-Replayed only on a replay: the same key and request again; another request with the key is 409', async () => {
    const body = { ...validateExamples.validate.value, ...apiKey };
    assert.equal((await call(mock, '/api/v1/validate', body)).headers.get('idempotent-replayed'), null);
    const key = { 'idempotency-key': 'mock-test-key-1' };
    const first = await call(mock, '/api/v1/validate', body, key);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    // Credentials in the body are not part of the request compared (the server drops them first).
    const again = await call(mock, '/api/v1/validate', { ...body, api_key: 'gck_Zz99Yy88_0123456789abcdefghijklmnopqrstuv' }, key);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(await again.json(), await first.json());
    const other = await call(mock, '/api/v1/validate', { ...body, question: 'Another?' }, key);
    assert.equal(other.status, 409);
    const problem = await other.json();
    assert.deepEqual(
      [problem.code, problem.title, problem.request_id],
      ['idempotency_key_reused', 'Conflict', other.headers.get('x-request-id')],
    );
    // A documented error asked for with Prefer is kept too, as the server keeps its handlers' 4xx.
    const missing = { 'idempotency-key': 'mock-test-key-2', prefer: 'code=404' };
    const path = `/api/v1/templates/tpl_01JD3XC4D5E6F7G8H9J0K1M2N3/delete`;
    assert.equal((await call(mock, path, {}, { ...bearer, ...missing })).status, 404);
    const replayed = await call(mock, path, {}, { ...bearer, 'idempotency-key': 'mock-test-key-2' });
    assert.deepEqual([replayed.status, replayed.headers.get('idempotent-replayed')], [404, 'true']);
  });

  test('every call gets its own request id, in the header and in a problem; a valid one of the caller is kept', async () => {
    const answers = [
      await call(mock, '/healthz'),
      await call(mock, '/healthz'),
      await call(mock, '/auth/me'),
      await call(mock, '/auth/me'),
    ];
    const ids = answers.map((answer) => answer.headers.get('x-request-id')!);
    for (const id of ids) assert.match(id, /^req_[0-9A-HJKMNP-TV-Z]{26}$/);
    assert.equal(new Set(ids).size, ids.length);
    assert.equal((await answers[2]!.json()).request_id, ids[2]);
    assert.equal((await call(mock, '/healthz', undefined, { 'x-request-id': 'my-trace-42' })).headers.get('x-request-id'), 'my-trace-42');
    assert.match((await call(mock, '/healthz', undefined, { 'x-request-id': 'no' })).headers.get('x-request-id')!, /^req_/);
  });

  test('a page asked for with a cursor is the last one', async () => {
    for (const path of ['/api/v1/history', '/api/v1/audit', '/api/v1/saas/users']) {
      const first = await (await call(mock, path, {}, bearer)).json();
      assert.ok(first.data.length > 0, path);
      const last = await (await call(mock, path, { cursor: first.next_cursor ?? 'any' }, bearer)).json();
      assert.deepEqual(last, { data: [], has_more: false, next_cursor: null }, path);
    }
  });

  test('results and the system card name the engine the mock was built with, and its verifiers as the server does', async () => {
    for (const [mode, example] of Object.entries<{ value: object }>(validateExamples)) {
      const result = await (await call(mock, '/api/v1/validate', example.value, bearer)).json();
      // As the server answers without a model-backed verifier: every claim and the engine name theirs.
      assert.deepEqual(result.metadata.engine, { ...deterministicEngine, verifier: 'none' }, mode);
      assert.ok(
        result.claims.length > 0 && result.claims.every((claim: { verifier?: string }) => claim.verifier === 'deterministic'),
        mode,
      );
    }
    const card = await (await call(mock, '/api/v1/system-card', {}, bearer)).json();
    assert.deepEqual(
      [card.validation_method.name, card.validation_method.version],
      [deterministicEngine.method, deterministicEngine.version],
    );
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
    const result = await (await call(mock, '/api/v1/validate', validateExamples.generate.value, bearer)).json();
    assert.deepEqual(result.metadata.engine, { ...deterministicEngine, verifier: 'none' }, 'generated results name the engine too');
  } finally {
    await mock.close();
  }
});

test('close() stops the mock and its Prism', async () => {
  const mock = await startMock({ port: 0 });
  await mock.close();
  await assert.rejects(fetch(`${mock.url}/healthz`));
});
