import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { loadContract } from '../../src/contract/contract.js';
import { bodyLimitBytes } from '../../src/http/body-parser.js';
import { snapshot } from '../support/cosmos-snapshot.js';
import { email, password } from '../support/fixtures.js';
import { type Reply, startTestServer, type TestServer } from '../support/harness.js';

let server: TestServer;
let token: string;
before(async () => {
  server = await startTestServer();
  token = await server.login('acme', 'admin');
});
after(() => server.close());

const contract = loadContract();
const schemas = (contract.document as { components: { schemas: Record<string, object> } }).components.schemas;
const ajv = new Ajv2020({ strict: false });
addFormats.default(ajv);
const isProblem = ajv.compile<{ code: string; status: number; type: string; request_id: string }>({
  ...schemas.Problem,
  $defs: undefined,
  properties: { ...(schemas.Problem as { properties: object }).properties, errors: { type: 'array', items: schemas.FieldError } },
});

function assertProblem(reply: Reply, status: number, code: string) {
  assert.equal(reply.status, status, reply.text);
  assert.equal(reply.headers.get('content-type'), 'application/problem+json; charset=utf-8');
  assert.ok(isProblem(reply.body), JSON.stringify(isProblem.errors));
  assert.equal(reply.body.code, code);
  assert.equal(reply.body.status, status);
  assert.equal(reply.body.type, `https://groundcheck.dev/problems/${code}`);
  assert.equal(reply.body.request_id, reply.headers.get('x-request-id'));
  assert.doesNotMatch(reply.text, /\bat .+\.(ts|js):\d+|node_modules|Error:/, 'no stack trace or internal message');
}

describe('invalid requests', () => {
  test('list every invalid field with a JSON pointer', async () => {
    const reply = await server.call(
      '/api/v1/validate',
      { mode: 'validate', question: '', chatbot_response: 42, urls: ['ftp://x'], surprise: true },
      { token },
    );
    assertProblem(reply, 400, 'invalid_request');
    const pointers = reply.body.errors.map((e: { pointer: string }) => e.pointer);
    for (const pointer of ['/question', '/chatbot_response', '/urls/0', '/surprise'])
      assert.ok(pointers.includes(pointer), `${pointer} in ${pointers}`);
    assert.deepEqual(
      reply.body.errors.filter((e: { pointer: string }) => e.pointer === '/question'),
      [{ pointer: '/question', detail: 'must not be empty' }],
      "in words, not a validator's",
    );
  });

  test('name the missing source, and the missing, mistyped or unknown mode', async () => {
    const noSource = await server.call('/api/v1/validate', { mode: 'validate', question: 'q?' }, { token });
    assert.deepEqual(noSource.body.errors, [
      { pointer: '', detail: 'needs at least one of: source_groups, urls, inline_text' },
      { pointer: '/chatbot_response', detail: 'is required' },
    ]);
    const badMode = await server.call('/api/v1/validate', { mode: 'summarize', question: 'q?' }, { token });
    assert.deepEqual(badMode.body.errors, [{ pointer: '/mode', detail: '"summarize" is not a known mode' }]);
    const noMode = await server.call('/api/v1/validate', { question: 'q?' }, { token });
    assert.deepEqual(noMode.body.errors, [{ pointer: '/mode', detail: 'is required' }]);
    const numberMode = await server.call('/api/v1/validate', { mode: 3, question: 'q?' }, { token });
    assert.deepEqual(numberMode.body.errors, [{ pointer: '/mode', detail: 'must be a string' }]);
  });

  test('accept each valid mode (the operation itself is served by a later release)', async () => {
    for (const body of [
      { mode: 'generate', question: 'q?', inline_text: 'source' },
      { mode: 'validate', question: 'q?', chatbot_response: 'a.', urls: ['https://docs.acme.test/a'] },
      { mode: 'validate_and_fix', question: 'q?', chatbot_response: 'a.', source_groups: ['grp_01JD3XA1B2C3D4E5F6G7H8J9K0'] },
    ]) {
      const reply = await server.call('/api/v1/validate', body, { token });
      assert.notEqual(reply.status, 400, reply.text);
    }
  });

  test('enforce field length bounds from the contract', async () => {
    const reply = await server.call('/api/v1/validate', { mode: 'generate', question: 'q'.repeat(4001), inline_text: 'source' }, { token });
    assertProblem(reply, 400, 'invalid_request');
    assert.deepEqual(
      reply.body.errors.map((e: { pointer: string }) => e.pointer),
      ['/question'],
    );
  });

  test('enforce page size maxima', async () => {
    const reply = await server.call('/api/v1/history', { limit: 101 }, { token });
    assertProblem(reply, 400, 'invalid_request');
    assert.deepEqual(
      reply.body.errors.map((e: { pointer: string }) => e.pointer),
      ['/limit'],
    );
  });

  test('report malformed JSON', async () => {
    assertProblem(await server.call('/auth/login', undefined, { raw: '{"email":' }), 400, 'malformed_json');
  });

  test('answer a top-level null, string, number or boolean as an array is answered: invalid_request at the whole body', async () => {
    for (const raw of ['null', '"validate"', '42', 'true', 'false', '[]']) {
      for (const path of ['/api/v1/validate', '/api/v1/stats']) {
        const reply = await server.call(path, undefined, { raw, token });
        assertProblem(reply, 400, 'invalid_request');
        assert.deepEqual(reply.body.errors, [{ pointer: '', detail: 'must be an object' }], `${raw} to ${path}`);
      }
    }
    // With an API key expected in the body, a body that is not an object carries no credentials.
    assertProblem(await server.call('/api/v1/stats', undefined, { raw: 'null' }), 401, 'unauthenticated');
  });

  test('refuse a body that is not valid UTF-8, storing nothing', async () => {
    const before = await snapshot(server.cosmos);
    const json = (text: string) => Buffer.from(text);
    const invalid = Buffer.concat([json('{"name":"q'), Buffer.from([0xff, 0xfe]), json('","allowed_roles":[]}')]);
    const truncated = Buffer.concat([json('{"name":"caf'), Buffer.from([0xc3]), json('"}')]);
    const surrogate = Buffer.concat([json('{"name":"'), Buffer.from([0xed, 0xa0, 0x80]), json('"}')]);
    for (const raw of [invalid, truncated, surrogate]) {
      const reply = await server.call('/api/v1/sources/group/save', undefined, { raw, token });
      assertProblem(reply, 400, 'malformed_json');
      assert.match(reply.body.detail, /UTF-8/);
    }
    assert.equal(await snapshot(server.cosmos), before);
    const valid = await server.call('/api/v1/sources/group/save', undefined, { raw: json('{"name":"café ☕ 𝄞"}'), token });
    assert.equal(valid.status, 200, valid.text);
    assert.equal(valid.body.name, 'café ☕ 𝄞');
  });

  test('refuse a body over 1 MiB with 413, before reading it all', async () => {
    const big = JSON.stringify({ mode: 'generate', question: 'q', inline_text: 'x'.repeat(bodyLimitBytes) });
    assertProblem(await server.call('/api/v1/validate', undefined, { raw: big, token }), 413, 'payload_too_large');
  });

  test('refuse a body that is not JSON with 415', async () => {
    const reply = await server.call('/api/v1/history', undefined, {
      raw: 'limit=5',
      token,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assertProblem(reply, 415, 'unsupported_media_type');
  });

  test('answer unknown paths with 404 and other methods with 405', async () => {
    assertProblem(await server.call('/api/v1/nothing-here', {}, { token }), 404, 'not_found');
    const wrongMethod = await server.call('/api/v1/history', undefined, { method: 'GET', token });
    assertProblem(wrongMethod, 405, 'method_not_allowed');
    assert.equal(wrongMethod.headers.get('allow'), 'POST');
  });

  test('reject an id that does not match its pattern', async () => {
    const reply = await server.call('/api/v1/templates/upload-url-ish', {}, { token });
    assertProblem(reply, 400, 'invalid_request');
    assert.deepEqual(
      reply.body.errors.map((e: { pointer: string }) => e.pointer),
      ['path:id'],
    );
  });

  test('write nothing when validation or authentication fails, on any operation', async () => {
    const viewer = await server.login('acme', 'viewer');
    const before = await snapshot(server.cosmos);
    await server.call('/auth/login', { email: email('acme', 'admin'), password: password('acme', 'admin'), customer_id: 'acme', extra: 1 });
    for (const op of contract.operations.filter((o) => o.method === 'POST')) {
      const path = op.pathTemplate.replace(
        '{id}',
        op.pathTemplate.includes('templates') ? 'tpl_01JD3XC4D5E6F7G8H9J0K1M2N3' : 'val_01JD3X8Q5Z7M2N4P6R8T0V2W4Y',
      );
      await server.call(path, { unexpected_field: true }, { token });
      await server.call(path, { unexpected_field: true }, { token: 'not-a-token' });
      await server.call(path, { customer_id: 'acme', api_key: 'gck_AAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB' });
      if (op.requiredRole === 'admin') await server.call(path, {}, { token: viewer });
    }
    assert.equal(await snapshot(server.cosmos), before);
  });
});

describe('request ids', () => {
  test('a caller-supplied X-Request-Id is kept; otherwise one is made', async () => {
    const given = await server.call('/healthz', undefined, { method: 'GET', headers: { 'x-request-id': 'trace-0123456789' } });
    assert.equal(given.headers.get('x-request-id'), 'trace-0123456789');
    const made = await server.call('/healthz', undefined, { method: 'GET', headers: { 'x-request-id': 'bad id with spaces' } });
    assert.match(made.headers.get('x-request-id')!, /^req_[0-9A-Z]{26}$/);
  });
});
