// Each operation lists exactly the problem codes it can return, per status, and `Problem.code` lists
// exactly the codes the reference server's source can emit. The codes an operation lists come from
// two places: the request pipeline (server/src/http), which applies to an operation by what its
// contract says (credentials, API key, feature, body, Idempotency-Key), and the services of its tag.
// The scenario recorder checks the same lists against every problem the running server answers.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import type { OpenAPIV3_1 } from 'openapi-types';
import { contractCodes, namedCodes, ownProblemCodes, problemCodes, responseOf } from '../support/problem-codes.js';
import { type Operation, type OperationEntry, operations, rawSpec } from '../support/spec.js';
import { emittedCodes, filesReachedFrom } from './emitted-codes.js';
import { createRecorder } from './scenarios/recorder.js';

const spec = rawSpec();
const codes = contractCodes(spec);
const emitted = emittedCodes();
const statusesOf = (code: string) => new Set(emitted.codes.filter((e) => e.code === code).map((e) => String(e.status)));
const problemStatuses = (operation: Operation) =>
  Object.keys(operation.responses ?? {}).filter((status) => problemCodes(spec, operation, status) !== null);

/** Codes that answer a path rather than an operation, so no operation lists them. */
const pathCodes: Record<string, string> = {
  method_not_allowed: 'another method on a known path; declared by no operation (decision S40)',
  not_implemented: 'declared only by an operation the server does not serve; it serves all (statuses.test.ts)',
};

/** Pipeline answers on a status the operation does not declare, each with its reason. */
const undeclared: Record<string, string> = {
  'getMe 403': "an identity provider's token that maps to no role answers 403 insufficient_role (server/test/auth/oidc.test.ts)",
  'getHealth 400': "the HTTP parser's 400 malformed_request comes before the operation is known; the probes declare 408, 431, 500",
  'getReadiness 400': "the HTTP parser's 400 malformed_request comes before the operation is known; the probes declare 408, 431, 500",
};

/** What the request pipeline can answer on an operation, by status, read from the operation's contract. */
function pipelineCodes({ path, operation }: OperationEntry): Record<string, string[]> {
  const credentials = operation['x-required-role'] !== 'none';
  const body = operation.requestBody !== undefined;
  const parameters = [...(spec.paths![path]!.parameters ?? []), ...(operation.parameters ?? [])] as OpenAPIV3_1.ReferenceObject[];
  const idempotent = parameters.some((p) => p.$ref === '#/components/parameters/IdempotencyKey');
  const apiKey = operation['x-api-key'] === true;
  const counted = credentials || body;
  const when = (condition: boolean, ...list: string[]) => (condition ? list : []);
  return {
    // The HTTP parser's refusals come before the operation is known; the rest from app.ts's steps in order.
    '400': ['malformed_request', ...when(body, 'malformed_json', 'invalid_request')],
    '401': when(credentials, 'unauthenticated', 'invalid_token', 'token_expired', ...when(apiKey, 'invalid_api_key')),
    '403': when(
      credentials,
      'insufficient_role',
      ...when(!!operation['x-required-feature'], 'feature_disabled'),
      ...when(!apiKey, 'api_key_not_allowed'),
    ),
    '408': ['request_timeout'],
    '409': when(idempotent, 'idempotency_key_reused', 'idempotency_in_progress'),
    '413': when(body, 'payload_too_large'),
    '415': when(body, 'unsupported_media_type'),
    // Counted calls (by tenant, or by address without credentials) go through the store.
    '429': when(counted, 'rate_limited'),
    '431': ['headers_too_large'],
    '500': ['internal_error'],
    '503': when(counted, 'service_unavailable'),
  };
}

const sorted = (list: Iterable<string>) => [...list].sort();

describe('problem codes', () => {
  test('Problem.code lists exactly the codes the server source emits, each read from a literal', () => {
    assert.deepEqual(emitted.unreadable, [], 'an error built with a code that is not a string literal');
    assert.deepEqual(sorted(codes), sorted(new Set(emitted.codes.map((e) => e.code))));
  });

  test('each operation lists codes for every problem status it declares; an own list only where it differs', () => {
    for (const { operation } of operations(spec)) {
      const id = operation.operationId!;
      for (const status of problemStatuses(operation)) {
        const listed = problemCodes(spec, operation, status)!;
        assert.ok(listed.length > 0, `${id} ${status} lists its codes`);
        assert.equal(new Set(listed).size, listed.length, `${id} ${status} lists each code once`);
        for (const code of listed) {
          assert.ok(codes.includes(code), `${id} ${status}: ${code} is a Problem.code`);
          assert.ok(statusesOf(code).has(status), `${id} ${status}: the server sends ${code} with ${sorted(statusesOf(code))}`);
        }
      }
      for (const [status, own] of Object.entries(ownProblemCodes(operation))) {
        const shared = responseOf(spec, operation, status)?.response['x-problem-codes'];
        assert.ok(problemStatuses(operation).includes(status), `${id} lists codes for ${status}, a problem status it declares`);
        assert.notDeepEqual(sorted(own), sorted(shared ?? []), `${id} ${status} repeats the shared response's codes`);
      }
    }
  });

  test('what a reader sees names exactly the listed codes: response descriptions, examples, operation descriptions', () => {
    for (const { operation } of operations(spec)) {
      const id = operation.operationId!;
      const all = new Set<string>();
      for (const status of problemStatuses(operation)) {
        const listed = problemCodes(spec, operation, status)!;
        listed.forEach((code) => all.add(code));
        const { description } = responseOf(spec, operation, status)!;
        assert.deepEqual(sorted(namedCodes(description, codes)), sorted(listed), `${id} ${status}: its description names its codes`);
      }
      for (const code of namedCodes(operation.description, codes)) assert.ok(all.has(code), `${id}'s description names ${code}`);
    }
    for (const [name, response] of Object.entries(spec.components!.responses!) as [string, OpenAPIV3_1.ResponseObject][]) {
      const media = response.content?.['application/problem+json'];
      if (!media) continue;
      const own = (response as { 'x-problem-codes'?: string[] })['x-problem-codes'] ?? [];
      assert.deepEqual(sorted(namedCodes(response.description, codes)), sorted(own), `${name}: its description names its codes`);
      const examples = [media.example, ...Object.values(media.examples ?? {}).map((e) => (e as OpenAPIV3_1.ExampleObject).value)];
      for (const example of examples.filter(Boolean) as { code: string }[]) assert.ok(own.includes(example.code), `${name} example`);
    }
  });

  test('every code of the request pipeline is listed on each operation it applies to', () => {
    const gaps: string[] = [];
    for (const entry of operations(spec)) {
      const id = entry.operation.operationId!;
      for (const [status, expected] of Object.entries(pipelineCodes(entry))) {
        if (expected.length === 0) continue;
        const listed = problemCodes(spec, entry.operation, status);
        if (!listed) {
          gaps.push(`${id} ${status}`);
          continue;
        }
        for (const code of expected) assert.ok(listed.includes(code), `${id} ${status} lists ${code}`);
      }
    }
    assert.deepEqual(gaps.sort(), Object.keys(undeclared).sort(), 'statuses the pipeline answers but the operation does not declare');
  });

  test("every other code an operation lists is emitted by its tag's route or the services it uses", () => {
    const codesOfFiles = (files: Set<string>) => new Set(emitted.codes.filter((e) => files.has(e.file)).map((e) => e.code));
    const reachedByTag = new Map<string, Set<string>>();
    for (const entry of operations(spec)) {
      const { operation } = entry;
      const id = operation.operationId!;
      const tag = operation.tags![0]!;
      if (!reachedByTag.has(tag)) reachedByTag.set(tag, codesOfFiles(filesReachedFrom(`server/src/routes/${tag}.ts`)));
      const reached = reachedByTag.get(tag)!;
      const pipeline = pipelineCodes(entry);
      for (const status of problemStatuses(operation)) {
        for (const code of problemCodes(spec, operation, status)!) {
          if (pipeline[status]?.includes(code)) continue;
          assert.ok(reached.has(code), `${id} ${status} lists ${code}, which nothing the ${tag} routes use emits`);
        }
      }
    }
  });

  test('every code is listed by some operation, except the codes that answer a path', () => {
    const listed = new Set(
      operations(spec).flatMap(({ operation }) => problemStatuses(operation).flatMap((status) => problemCodes(spec, operation, status)!)),
    );
    assert.deepEqual(
      codes.filter((code) => !listed.has(code)),
      Object.keys(pathCodes).filter((code) => codes.includes(code)),
    );
    for (const code of Object.keys(pathCodes)) assert.ok(!listed.has(code), `${code} is listed by an operation: drop it from pathCodes`);
  });

  test('the scenario recorder reports a problem whose code the operation does not list for its status', async () => {
    const answers: Record<string, object> = {
      local_login_disabled: { code: 'local_login_disabled', detail: 'This tenant signs in through its identity provider.' },
      billing_not_configured: { code: 'billing_not_configured', detail: 'This deployment has no billing portal.' },
    };
    const server = createServer((req, res) => {
      const code = new URL(req.url ?? '/', 'http://loopback').searchParams.get('code')!;
      const body = {
        type: `https://groundcheck.dev/problems/${code}`,
        title: 'Not found',
        status: 404,
        request_id: 'req_probe_0001',
        ...answers[code],
      };
      res.writeHead(404, { 'content-type': 'application/problem+json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/auth/login`;
      const recorder = createRecorder(spec);
      await recorder.fetch(new Request(`${base}?code=local_login_disabled`, { method: 'POST' }));
      assert.deepEqual(recorder.problems, []);
      await recorder.fetch(new Request(`${base}?code=billing_not_configured`, { method: 'POST' }));
      assert.equal(recorder.problems.length, 1);
      assert.match(recorder.problems[0]!, /code billing_not_configured is not one login lists for 404 \(local_login_disabled\)/);
    } finally {
      server.close();
    }
  });
});
