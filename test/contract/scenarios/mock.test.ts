// Consumer side: the contract scenarios against @groundcheck/mock (the built package, as a customer
// installs it). Every SDK method gets a typed answer from the contract's examples, each answer is
// checked against the contract, and together they reach every operation and required status.
// Then what makes the mock faithful, each checked against the server's own code or the contract: a
// 400 lists the request's own faults as the server's validator does, a replay is marked only when a
// key is sent again, each call has its own request id, pages end, and one engine version is named.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type RunningMock, startMock } from '@groundcheck/mock';
import { createClient } from '../../../sdk/src/index.js';
import { loadContract } from '../../../server/src/contract/contract.js';
import { ContractValidator } from '../../../server/src/contract/validator.js';
import { deterministicEngine } from '../../../server/src/engine/version.js';
import type { BadRequestError } from '../../../server/src/errors.js';
import { rawSpec } from '../../support/spec.js';
import { missingPairs, summary } from './coverage.js';
import { createRecorder } from './recorder.js';
import { scenarios } from './scenarios.js';

const spec = rawSpec();
const recorder = createRecorder(spec);
let mock: RunningMock;

const bearer = { authorization: 'Bearer any-token' };
const validationId = 'val_01JD3X8Q5Z7M2N4P6R8T0V2W4Y';
const validateBody = { mode: 'validate', question: 'How many days of leave?', chatbot_response: '30 days.', inline_text: '25 days.' };
const requestIdPattern = new RegExp((spec.components!.headers!['X-Request-Id'] as { schema: { pattern: string } }).schema.pattern);

/** A POST to the mock through the recorder, which checks the answer against the contract. */
function post(path: string, body?: unknown, headers: Record<string, string> = {}) {
  return recorder.fetch(
    new Request(mock.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer, ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
}

describe('the contract scenarios against the mock', () => {
  before(async () => {
    mock = await startMock({ port: 0 });
  });
  after(() => mock.close());

  scenarios(() => ({
    live: false,
    url: mock.url,
    invalidUrl: mock.url,
    recorder,
    apiKey: { customerId: 'acme', apiKey: 'gck_Ab12Cd34_0123456789abcdefghijklmnopqrstuv' },
  }));

  describe('faithful to the server', () => {
    test("a 400 lists the request's own faults, as the server's validator lists them", async () => {
      const server = loadContract();
      const validator = new ContractValidator(server);
      const invalid: [operationId: string, path: string, body: unknown, params?: Record<string, string>][] = [
        // The request: the faults are the mode (and so the shape), not a missing chatbot_response.
        ['validate', '/api/v1/validate', { mode: 'validated', question: 'q?', chatbot_response: 'a', inline_text: 'b', unexpected: 1 }],
        ['validate', '/api/v1/validate', { ...validateBody, unexpected: 1 }],
        ['validate', '/api/v1/validate', { mode: 'validate', question: 'q?' }],
        ['validate', '/api/v1/validate', { mode: 'generate', question: 'q?', chatbot_response: 'a', urls: ['ftp://x'] }],
        ['validate', '/api/v1/validate', { ...validateBody, question: 'x'.repeat(5000), unexpected: 1 }],
        ['listHistory', '/api/v1/history', { mode: 'nope', limit: 1000, unexpected: true }],
        [
          'reviewValidation',
          `/api/v1/history/${validationId}/review`,
          { action: 'edit', note: 'n', corrections: [] },
          { id: validationId },
        ],
        ['reviewValidation', '/api/v1/history/val_bad/review', { action: 'approve', note: 'n' }, { id: 'val_bad' }],
        ['saveUser', '/api/v1/saas/users/save', { email: 'new@acme.example' }],
        ['saveUser', '/api/v1/saas/users/save', { name: 'x' }],
      ];
      const sorted = (errors: { pointer: string; detail: string }[]) =>
        [...errors].sort((a, b) => `${a.pointer} ${a.detail}`.localeCompare(`${b.pointer} ${b.detail}`));
      for (const [operationId, path, body, params = {}] of invalid) {
        const operation = server.operations.find((o) => o.operationId === operationId)!;
        const expected = (() => {
          try {
            validator.checkRequest(operation, { path: params, headers: {}, query: {}, body });
          } catch (error) {
            return error as BadRequestError;
          }
          return assert.fail(`the server accepts ${JSON.stringify(body)}`);
        })();
        const response = await post(path, body);
        assert.equal(response.status, 400, path);
        const problem = await response.json();
        const call = `${operationId} ${JSON.stringify(body).slice(0, 120)}`;
        assert.deepEqual(
          [problem.code, problem.detail, sorted(problem.errors)],
          ['invalid_request', expected.detail, sorted(expected.fieldErrors)],
          call,
        );
        assert.deepEqual([problem.instance, problem.request_id], [path, response.headers.get('x-request-id')], call);
      }
    });

    test('a body that is not JSON is 400 malformed_json', async () => {
      const response = await recorder.fetch(
        new Request(`${mock.url}/api/v1/history`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...bearer },
          body: '{"mode":',
        }),
      );
      assert.equal(response.status, 400);
      assert.equal((await response.json()).code, 'malformed_json');
    });

    test('Idempotent-Replayed only when a key is sent again with the same request; another request with it is 409', async () => {
      const plain = await post('/api/v1/validate', validateBody);
      assert.equal(plain.status, 200);
      assert.equal(plain.headers.get('idempotent-replayed'), null, 'no key, no replay');
      const key = { 'idempotency-key': `mock-${Math.random().toString(36).slice(2)}` };
      const first = await post('/api/v1/validate', validateBody, key);
      assert.equal(first.headers.get('idempotent-replayed'), null, 'a first use is no replay');
      // The same fields in another order are the same request.
      const again = await post('/api/v1/validate', Object.fromEntries(Object.entries(validateBody).reverse()), key);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(await again.json(), await first.json());
      assert.notEqual(again.headers.get('x-request-id'), first.headers.get('x-request-id'));
      const reused = await post('/api/v1/validate', { ...validateBody, question: 'Another question?' }, key);
      assert.equal(reused.status, 409);
      assert.equal((await reused.json()).code, 'idempotency_key_reused');
      const elsewhere = await post('/api/v1/sources/group/delete', { group_id: 'grp_01JD3XA1B2C3D4E5F6G7H8J9K0' }, key);
      assert.equal(elsewhere.status, 409, 'the key on another operation');
      const unkeyed = await post('/api/v1/history', {}, key);
      assert.equal(unkeyed.headers.get('idempotent-replayed'), null, 'an operation without Idempotency-Key ignores one');
    });

    test("every call has its own request id in the contract's form, also in a problem; a caller's own is kept", async () => {
      const responses = [
        await post('/api/v1/history', {}),
        await post('/api/v1/history', {}),
        await post('/api/v1/validate', { mode: 'nope' }),
        await post('/api/v1/templates/tpl_01JD3XC4D5E6F7G8H9J0K1M2N3', {}, { prefer: 'code=404' }),
        await recorder.fetch(new Request(`${mock.url}/auth/me`)),
      ];
      const ids = responses.map((r) => r.headers.get('x-request-id') ?? '');
      for (const id of ids) assert.match(id, requestIdPattern);
      assert.equal(new Set(ids).size, ids.length, ids.join(', '));
      for (const response of responses.slice(2)) assert.equal((await response.json()).request_id, response.headers.get('x-request-id'));
      const own = await post('/api/v1/history', {}, { 'x-request-id': 'trace-0123456789' });
      assert.equal(own.headers.get('x-request-id'), 'trace-0123456789');
    });

    test('iterating history, audit events and users ends after the examples, each item once', async () => {
      const client = createClient({ baseUrl: mock.url, token: 'any-token', fetch: recorder.fetch, maxRetries: 0 });
      const examples = spec.components!.examples! as Record<string, { value: { data: unknown[] } }>;
      const users = (
        spec.paths!['/api/v1/saas/users']!.post!.responses!['200'] as { content: Record<string, { example: { data: unknown[] } }> }
      ).content['application/json']!.example;
      const lists = [
        [client.history.iterate({ limit: 1 }), examples.ValidationRecordPage!.value.data],
        [client.audit.iterate({ limit: 1 }), examples.AuditEventPage!.value.data],
        [client.saas.users.iterate({ limit: 1 }), users.data],
      ] as const;
      for (const [items, data] of lists) {
        const seen: unknown[] = [];
        for await (const item of items as AsyncIterable<unknown>) seen.push(item);
        assert.deepEqual(seen, data);
      }
      // A client of its own that follows `next_cursor` while `has_more` reaches the end too.
      let page = await (await post('/api/v1/history', {})).json();
      for (let pages = 1; page.has_more; pages += 1) {
        assert.ok(pages < 5, 'the pages end');
        page = await (await post('/api/v1/history', { cursor: page.next_cursor })).json();
      }
      assert.deepEqual([page.has_more, page.next_cursor], [false, null]);
    });

    test('the examples and the mock name the engine the server runs', async () => {
      const named: string[] = [];
      const visit = (node: unknown, inExample: boolean, at: string) => {
        if (Array.isArray(node)) return node.forEach((item, i) => visit(item, inExample, `${at}/${i}`));
        if (!node || typeof node !== 'object') return;
        const fields = node as Record<string, unknown>;
        for (const field of ['engine', 'validation_method'] as const) {
          const identity = fields[field] as { method?: string; name?: string; version?: string } | undefined;
          if (!inExample || !identity || typeof identity !== 'object') continue;
          named.push(`${at}/${field} ${identity.method ?? identity.name} ${identity.version}`);
        }
        for (const [key, value] of Object.entries(fields))
          visit(value, inExample || key === 'example' || key === 'examples', `${at}/${key}`);
      };
      visit(spec, false, '#');
      const expected = `${deterministicEngine.method} ${deterministicEngine.version}`;
      assert.ok(named.length >= 4, named.join('\n'));
      assert.deepEqual(
        named.filter((n) => !n.endsWith(` ${expected}`)),
        [],
      );

      for (const mode of ['validate', 'generate', 'validate_and_fix']) {
        const result = await (
          await post('/api/v1/validate', { ...validateBody, mode, ...(mode === 'generate' ? { chatbot_response: undefined } : {}) })
        ).json();
        assert.deepEqual(result.metadata.engine, { ...deterministicEngine, verifier: 'none' }, mode);
      }
      const card = await (await post('/api/v1/system-card')).json();
      assert.deepEqual(
        [card.validation_method.name, card.validation_method.version],
        [deterministicEngine.method, deterministicEngine.version],
      );
    });
  });

  test('every answer kept the contract', () => {
    assert.deepEqual(recorder.problems, []);
  });

  test('every operation and required status was exercised', (t) => {
    t.diagnostic(summary(spec, recorder.exchanges));
    assert.deepEqual(missingPairs(spec, recorder.exchanges), []);
  });
});
