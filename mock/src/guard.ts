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

export function createGuard({ contract, prism, dynamic }: GuardOptions): Server {
  const keys = new IdempotencyKeys();
  return createServer(async (req, res) => {
    const requestId = requestIdOf(req.headers['x-request-id']);
    const path = new URL(req.url ?? '/', 'http://mock').pathname;
    const send = ({ status, headers, body }: Answer) => res.writeHead(status, headers).end(body);
    const problemText = (body: Json) => Buffer.from(JSON.stringify({ ...body, instance: path, request_id: requestId }));
    const problem = (body: Json, headers: Record<string, string> = {}) => {
      const base = { 'content-type': 'application/problem+json', 'x-request-id': requestId, ...headers };
      send(withBody({ status: Number(body.status), headers: base, body: Buffer.alloc(0) }, problemText(body)));
    };
    try {
      const body = await readBody(req);
      if (body === null) return problem(contract.problem('PayloadTooLarge'));
      const route = routeOf(contract, req.method ?? 'GET', path);
      const json = parseJson(body);
      if (route && json === malformed && isJson(req.headers['content-type'])) {
        return problem(serverProblem(400, 'Invalid request', 'malformed_json', 'The request body is not valid JSON.'));
      }
      const fields = json !== malformed && json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as Json) : null;
      const headers = { ...req.headers };
      if (route) {
        const bearer = /^Bearer \S+/i.test(req.headers.authorization ?? '');
        const apiKey = route.acceptsApiKey && typeof fields?.api_key === 'string';
        if (route.needsCredentials && !bearer && !apiKey) {
          return problem(contract.problem('Unauthorized', 'unauthenticated'), { 'WWW-Authenticate': 'Bearer' });
        }
        const named = route.exampleField ? fields?.[route.exampleField] : undefined;
        if (!dynamic && headers.prefer === undefined && typeof named === 'string' && route.examples.includes(named)) {
          headers.prefer = `example=${named}`;
        }
      }
      const answer = await ask(prism, req, body, headers);
      const violations =
        route && (answer.status === 400 || answer.status === 422) ? requestViolations(answer.headers['sl-violations']) : [];
      if (violations.length > 0) {
        const { detail, errors } = invalidRequest(violations, route!.body, json === malformed ? undefined : json);
        const invalid = problemText(serverProblem(400, 'Invalid request', 'invalid_request', detail, errors));
        // Prism's other headers stay: its rate-limit examples and, for a reader, `sl-violations`.
        const shaped = reshape(answer, { requestId, path, lastPage: false });
        return send(
          withBody({ ...shaped, status: 400, headers: { ...shaped.headers, 'content-type': 'application/problem+json' } }, invalid),
        );
      }
      const shaped = reshape(answer, { requestId, path, lastPage: route?.paged === true && typeof fields?.cursor === 'string' });
      const key = route?.idempotent ? req.headers['idempotency-key'] : undefined;
      if (typeof key !== 'string') return send(shaped);
      const fingerprint = fingerprintOf(req.method ?? 'GET', path, withoutCredentials(route!, fields));
      const outcome = keys.look(key, fingerprint);
      if (outcome.kind === 'reused') return problem(keyReused);
      if (outcome.kind === 'replay') {
        return send({
          ...outcome.answer,
          headers: { ...outcome.answer.headers, 'x-request-id': requestId, 'idempotent-replayed': 'true' },
        });
      }
      keys.keep(key, fingerprint, shaped);
      send(shaped);
    } catch (error) {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain', 'x-request-id': requestId });
      res.end(`The mock could not reach Prism: ${(error as Error).message}`);
    }
  });
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
