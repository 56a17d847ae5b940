// The front of the mock: the checks Prism cannot make from the contract alone, then Prism, then
// what the server does with a request Prism has let through. A body that is not JSON answers 400
// `malformed_json`, a body over the contract's 1 MiB the documented 413; a call with no credentials
// at all to an operation that needs them answers the documented 401 (Prism sees the API-key
// alternative as "no security" and cannot read credentials in a body); a validate or review
// request without a `Prefer` header gets the response example of its own mode or action. Prism's
// answer to an invalid request becomes the 400 problem listing its violations (violations.ts); any
// other answer is reshaped as the server's (answer.ts) and, under an Idempotency-Key, kept for a
// replay (idempotency.ts).
import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import { type Answer, requestIdOf, reshape, withBody } from './answer.js';
import { type Contract, type Route, routeOf } from './contract.js';
import { fingerprintOf, IdempotencyKeys } from './idempotency.js';
import { invalidRequest, requestViolations } from './violations.js';

/** The contract's limit on request bodies (decision 71). */
const maxBodyBytes = 1024 * 1024;

export interface GuardOptions {
  contract: Contract;
  /** Where Prism listens. */
  prism: { host: string; port: number };
  /** With `--dynamic` Prism generates data from the schemas; named examples are then not picked. */
  dynamic: boolean;
}

type Json = Record<string, unknown>;

/** A problem in the server's words and order (server/src/http/problem.ts); `instance` and `request_id` are the request's. */
const serverProblem = (status: number, title: string, code: string, detail: string, errors?: unknown): Json => ({
  type: `https://groundcheck.dev/problems/${code}`,
  title,
  status,
  detail,
  instance: '',
  code,
  request_id: '',
  ...(errors === undefined ? {} : { errors }),
});

const keyReused = serverProblem(
  409,
  'Conflict',
  'idempotency_key_reused',
  'This Idempotency-Key was already used for a different request; send a new key with a new request.',
);

/** The request's id and path, which the problems in its answer name. */
interface Scope {
  requestId: string;
  path: string;
}

export function createGuard({ contract, prism, dynamic }: GuardOptions): Server {
  const keys = new IdempotencyKeys();

  async function answerTo(req: IncomingMessage, scope: Scope): Promise<Answer> {
    const body = await readBody(req);
    if (body === null) return problemAnswer(scope, contract.problem('PayloadTooLarge'));
    const route = routeOf(contract, req.method ?? 'GET', scope.path);
    const json = parseJson(body);
    const fields = objectFields(json);
    const refused = route ? refusalBeforePrism(req, route, json, fields, scope) : null;
    if (refused) return refused;
    const answer = await ask(prism, req, body, prismHeaders(req, route, fields, dynamic));
    const violations = route ? prismViolations(answer) : [];
    if (violations.length > 0) return invalidRequestAnswer(answer, violations, route!, json, scope);
    const shaped = reshape(answer, { ...scope, lastPage: route?.paged === true && typeof fields?.cursor === 'string' });
    return underIdempotencyKey(req, route, fields, shaped, scope);
  }

  /** What the server refuses before its handler: a body that is not JSON, a call with no credentials at all. */
  function refusalBeforePrism(req: IncomingMessage, route: Route, json: unknown, fields: Json | null, scope: Scope): Answer | null {
    if (json === malformed && isJson(req.headers['content-type'])) {
      return problemAnswer(scope, serverProblem(400, 'Invalid request', 'malformed_json', 'The request body is not valid JSON.'));
    }
    if (lacksCredentials(route, req.headers.authorization, fields)) {
      return problemAnswer(scope, contract.problem('Unauthorized', 'unauthenticated'), { 'WWW-Authenticate': 'Bearer' });
    }
    return null;
  }

  /** The first answer under a key is kept; the same request again gets it back, another request a 409. */
  function underIdempotencyKey(req: IncomingMessage, route: Route | undefined, fields: Json | null, shaped: Answer, scope: Scope): Answer {
    const key = route?.idempotent ? req.headers['idempotency-key'] : undefined;
    if (typeof key !== 'string') return shaped;
    const fingerprint = fingerprintOf(req.method ?? 'GET', scope.path, withoutCredentials(route!, fields));
    const outcome = keys.look(key, fingerprint);
    if (outcome.kind === 'reused') return problemAnswer(scope, keyReused);
    if (outcome.kind === 'replay') {
      return {
        ...outcome.answer,
        headers: { ...outcome.answer.headers, 'x-request-id': scope.requestId, 'idempotent-replayed': 'true' },
      };
    }
    keys.keep(key, fingerprint, shaped);
    return shaped;
  }

  return createServer(async (req, res) => {
    const requestId = requestIdOf(req.headers['x-request-id']);
    const path = new URL(req.url ?? '/', 'http://mock').pathname;
    try {
      const { status, headers, body } = await answerTo(req, { requestId, path });
      res.writeHead(status, headers).end(body);
    } catch (error) {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain', 'x-request-id': requestId });
      res.end(`The mock could not reach Prism: ${(error as Error).message}`);
    }
  });
}

function problemText({ requestId, path }: Scope, body: Json): Buffer {
  return Buffer.from(JSON.stringify({ ...body, instance: path, request_id: requestId }));
}

function problemAnswer(scope: Scope, body: Json, headers: Record<string, string> = {}): Answer {
  const base = { 'content-type': 'application/problem+json', 'x-request-id': scope.requestId, ...headers };
  return withBody({ status: Number(body.status), headers: base, body: Buffer.alloc(0) }, problemText(scope, body));
}

/** Prism's answer to an invalid request, as the server's 400 problem listing the request's violations. */
function invalidRequestAnswer(
  answer: Answer,
  violations: ReturnType<typeof requestViolations>,
  route: Route,
  json: unknown,
  scope: Scope,
): Answer {
  const { detail, errors } = invalidRequest(violations, route.body, json === malformed ? undefined : json);
  const invalid = problemText(scope, serverProblem(400, 'Invalid request', 'invalid_request', detail, errors));
  // Prism's other headers stay: its rate-limit examples and, for a reader, `sl-violations`.
  const shaped = reshape(answer, { ...scope, lastPage: false });
  return withBody({ ...shaped, status: 400, headers: { ...shaped.headers, 'content-type': 'application/problem+json' } }, invalid);
}

/** The violations Prism found in a request it refused. */
function prismViolations(answer: Answer): ReturnType<typeof requestViolations> {
  return answer.status === 400 || answer.status === 422 ? requestViolations(answer.headers['sl-violations']) : [];
}

/** Neither a bearer token nor, where the operation takes one, an API key, for an operation that needs credentials. */
function lacksCredentials(route: Route, authorization: string | undefined, fields: Json | null): boolean {
  const bearer = /^Bearer \S+/i.test(authorization ?? '');
  const apiKey = route.acceptsApiKey && typeof fields?.api_key === 'string';
  return route.needsCredentials && !bearer && !apiKey;
}

/** The request's headers, with a `Prefer` for the example its mode or action names when it sets none. */
function prismHeaders(req: IncomingMessage, route: Route | undefined, fields: Json | null, dynamic: boolean): IncomingMessage['headers'] {
  const headers = { ...req.headers };
  const named = route?.exampleField ? fields?.[route.exampleField] : undefined;
  if (!dynamic && headers.prefer === undefined && typeof named === 'string' && route?.examples.includes(named)) {
    headers.prefer = `example=${named}`;
  }
  return headers;
}

/** The whole body, or null when it is over the contract's limit. */
async function readBody(req: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBodyBytes) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

const malformed = Symbol('malformed');

/** The body's fields, when it is a JSON object. */
function objectFields(json: unknown): Json | null {
  return json !== malformed && json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as Json) : null;
}

/** The body's JSON value: undefined when there is no body, `malformed` when it is not JSON. */
function parseJson(body: Buffer): unknown {
  if (body.length === 0) return undefined;
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return malformed;
  }
}

const isJson = (type: string | undefined) => type === undefined || /^application\/([\w.-]+\+)?json\b/i.test(type);

/** The server drops API-key credentials from the body before it compares a retried request. */
function withoutCredentials(route: Route, fields: Json | null): Json | null {
  if (!route.acceptsApiKey || !fields) return fields;
  const { api_key: _key, customer_id: _customer, ...rest } = fields;
  return rest;
}

/** Prism's whole answer to the request. */
function ask(prism: GuardOptions['prism'], req: IncomingMessage, body: Buffer, headers: IncomingMessage['headers']): Promise<Answer> {
  // The body is sent whole, so its length replaces any chunked framing of the original request.
  const { 'transfer-encoding': _chunked, ...sent } = headers;
  return new Promise((resolve, reject) => {
    const upstream = request(
      {
        host: prism.host,
        port: prism.port,
        method: req.method,
        path: req.url,
        headers: { ...sent, 'content-length': String(body.length) },
      },
      async (answer) => {
        try {
          const chunks: Buffer[] = [];
          for await (const chunk of answer) chunks.push(chunk as Buffer);
          const received: Record<string, string> = {};
          for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined) received[name] = String(value);
          resolve({ status: answer.statusCode ?? 502, headers: received, body: Buffer.concat(chunks) });
        } catch (error) {
          reject(error);
        }
      },
    );
    upstream.on('error', reject);
    upstream.end(body);
  });
}
