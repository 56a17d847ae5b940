// The error family: errorFromResponse for each status, and the same classes from real HTTP answers.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  createClient,
  errorFromResponse,
  GroundcheckError,
  IdempotencyError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  RequestAbortedError,
  ServerError,
  TimeoutError,
  WebhookVerificationError,
} from '../src/index.js';
import { json, type Loopback, problem, startLoopback } from './support/loopback.js';

const cases = [
  { status: 400, code: 'invalid_request', errorClass: BadRequestError, name: 'BadRequestError' },
  { status: 401, code: 'token_expired', errorClass: AuthenticationError, name: 'AuthenticationError' },
  { status: 403, code: 'insufficient_role', errorClass: PermissionError, name: 'PermissionError' },
  { status: 404, code: 'not_found', errorClass: NotFoundError, name: 'NotFoundError' },
  { status: 409, code: 'invalid_review_transition', errorClass: ConflictError, name: 'ConflictError' },
  { status: 409, code: 'idempotency_key_reused', errorClass: IdempotencyError, name: 'IdempotencyError' },
  { status: 413, code: 'payload_too_large', errorClass: BadRequestError, name: 'BadRequestError' },
  { status: 415, code: 'unsupported_media_type', errorClass: BadRequestError, name: 'BadRequestError' },
  { status: 429, code: 'rate_limited', errorClass: RateLimitError, name: 'RateLimitError' },
  { status: 500, code: 'internal_error', errorClass: ServerError, name: 'ServerError' },
  { status: 501, code: 'not_implemented', errorClass: ServerError, name: 'ServerError' },
  { status: 503, code: 'unavailable', errorClass: ServerError, name: 'ServerError' },
] as const;

const problemBody = (status: number, code: string) => ({
  type: `https://groundcheck.dev/problems/${code}`,
  title: 'Title',
  status,
  detail: `Something about ${code}.`,
  code,
  request_id: 'req_from_body',
  errors: status === 400 ? [{ pointer: '/question', detail: 'is required' }] : undefined,
});

describe('errorFromResponse', () => {
  for (const { status, code, errorClass, name } of cases) {
    test(`${status} ${code} → ${name}`, () => {
      const headers = new Headers({ 'content-type': 'application/problem+json', 'x-request-id': 'req_from_header', 'retry-after': '17' });
      const body = problemBody(status, code);
      const error = errorFromResponse(new Response(JSON.stringify(body), { status, headers }), body);
      assert.ok(error instanceof errorClass);
      assert.ok(error instanceof GroundcheckError && error instanceof Error);
      assert.equal(error.name, name);
      assert.equal(error.status, status);
      assert.equal(error.code, code);
      assert.equal(error.requestId, 'req_from_body');
      assert.deepEqual(error.problem, body);
      assert.equal(error.headers?.get('x-request-id'), 'req_from_header');
      const fields = status === 400 ? ' /question: is required' : '';
      assert.equal(error.message, `${status} ${code}: Something about ${code}.${fields} (request req_from_body)`);
      if (error instanceof RateLimitError) assert.equal(error.retryAfterInMs, 17_000);
    });
  }

  test("a body that is not a problem (a proxy's HTML page): status and the header's request id only", () => {
    const error = errorFromResponse(
      new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway', headers: { 'x-request-id': 'req_h' } }),
      '<html>Bad gateway</html>',
    );
    assert.ok(error instanceof ServerError);
    assert.equal(error.code, undefined);
    assert.equal(error.problem, undefined);
    assert.equal(error.requestId, 'req_h');
    assert.equal(error.message, '502: Bad Gateway (request req_h)');
  });

  test("an invalid request's message names each field and what is wrong with it", () => {
    const problem = {
      type: 'https://groundcheck.dev/problems/invalid_request',
      title: 'Invalid request',
      status: 400,
      detail: 'The request body has 2 invalid fields.',
      code: 'invalid_request',
      request_id: 'req_fields',
      errors: [
        { pointer: '/question', detail: 'must not be empty' },
        { pointer: '', detail: 'needs at least one of: source_groups, urls, inline_text' },
      ],
    };
    const error = errorFromResponse(new Response(JSON.stringify(problem), { status: 400 }), problem);
    assert.ok(error instanceof BadRequestError);
    assert.equal(
      error.message,
      '400 invalid_request: The request body has 2 invalid fields. /question: must not be empty; (body): needs at least one of: source_groups, urls, inline_text (request req_fields)',
    );
  });

  test('another 4xx is a BadRequestError; a RateLimitError without Retry-After has retryAfterInMs null', () => {
    assert.ok(errorFromResponse(new Response(null, { status: 422 })) instanceof BadRequestError);
    const limited = errorFromResponse(new Response(null, { status: 429 }));
    assert.ok(limited instanceof RateLimitError);
    assert.equal(limited.retryAfterInMs, null);
  });

  test('errors without a response have no status, code or headers', () => {
    for (const error of [new ConnectionError('x'), new TimeoutError('x'), new RequestAbortedError('x')]) {
      assert.ok(error instanceof GroundcheckError);
      assert.equal(error.status, undefined);
      assert.equal(error.headers, undefined);
    }
    assert.ok(new TimeoutError('x') instanceof ConnectionError);
    assert.equal(new WebhookVerificationError('invalid_token', 'x').code, 'invalid_token');
  });
});

describe('errors from HTTP answers', () => {
  let server: Loopback;
  before(async () => {
    server = await startLoopback((request, res) => {
      const [status, code] = decodeURIComponent(request.path).split('/').slice(-2);
      if (request.path.startsWith('/api/v1/templates/'))
        return json(res, Number(status), problemBody(Number(status), code!), { 'retry-after': '0' });
      problem(res, 500, 'internal_error');
    });
  });
  after(() => server.close());

  for (const { status, code, errorClass } of cases) {
    test(`a method answered ${status} ${code} rejects with ${errorClass.name}`, async () => {
      const client = createClient({ baseUrl: server.url, token: 't', maxRetries: 0 });
      // The template id lands in the path, which tells the loopback server what to answer.
      const error = await client.templates.get(`${status}/${code}` as string).catch((e: unknown) => e);
      assert.ok(error instanceof errorClass, String(error));
      assert.equal(error.status, status);
      assert.equal(error.code, code);
      assert.equal(error.requestId, 'req_from_body');
      assert.equal(error.problem?.detail, `Something about ${code}.`);
      if (status === 400) assert.deepEqual(error.problem?.errors, [{ pointer: '/question', detail: 'is required' }]);
    });
  }

  test('connection refused → ConnectionError with the reason', async () => {
    const port = await freePort();
    const client = createClient({ baseUrl: `http://127.0.0.1:${port}`, token: 't', maxRetries: 0 });
    const error = await client.stats().catch((e: unknown) => e);
    assert.ok(error instanceof ConnectionError, String(error));
    assert.ok(!(error instanceof TimeoutError));
    assert.match(error.message, /ECONNREFUSED/);
    assert.ok(error.cause);
  });
});

/** A port nothing listens on. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
