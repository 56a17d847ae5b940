// The front of the mock: the checks Prism cannot make from the contract alone, then Prism. A call
// with no credentials at all to an operation that needs them answers the documented 401 (Prism
// sees the API-key alternative as "no security" and cannot read credentials in a body); a body
// over the contract's 1 MiB answers the documented 413; a validate or review request without a
// `Prefer` header gets the response example of its own mode or action.
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import { type Contract, routeOf } from './contract.js';

/** The contract's limit on request bodies (decision 71). */
const maxBodyBytes = 1024 * 1024;

export interface GuardOptions {
  contract: Contract;
  /** Where Prism listens. */
  prism: { host: string; port: number };
  /** With `--dynamic` Prism generates data from the schemas; named examples are then not picked. */
  dynamic: boolean;
}

export function createGuard({ contract, prism, dynamic }: GuardOptions): Server {
  return createServer(async (req, res) => {
    try {
      const body = await readBody(req);
      const path = new URL(req.url ?? '/', 'http://mock').pathname;
      const route = routeOf(contract, req.method ?? 'GET', path);
      if (body === null) return problem(res, contract.problem('PayloadTooLarge'), path);
      const headers = { ...req.headers };
      if (route) {
        const json = parseObject(body);
        const bearer = /^Bearer \S+/i.test(req.headers.authorization ?? '');
        const apiKey = route.acceptsApiKey && typeof json?.api_key === 'string';
        if (route.needsCredentials && !bearer && !apiKey) {
          return problem(res, contract.problem('Unauthorized', 'unauthenticated'), path, { 'WWW-Authenticate': 'Bearer' });
        }
        const named = route.exampleField ? json?.[route.exampleField] : undefined;
        if (!dynamic && headers.prefer === undefined && typeof named === 'string' && route.examples.includes(named)) {
          headers.prefer = `example=${named}`;
        }
      }
      forward(req, res, body, headers, prism);
    } catch (error) {
      res.writeHead(502, { 'content-type': 'text/plain' }).end(`The mock could not reach Prism: ${(error as Error).message}`);
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

function parseObject(body: Buffer): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function problem(res: ServerResponse, body: Record<string, unknown>, path: string, headers: Record<string, string> = {}) {
  const text = JSON.stringify({ ...body, instance: path });
  res
    .writeHead(Number(body.status), {
      'content-type': 'application/problem+json',
      'content-length': Buffer.byteLength(text),
      'x-request-id': String(body.request_id),
      ...headers,
    })
    .end(text);
}

function forward(
  req: IncomingMessage,
  res: ServerResponse,
  body: Buffer,
  headers: IncomingMessage['headers'],
  prism: GuardOptions['prism'],
) {
  // The body is sent whole, so its length replaces any chunked framing of the original request.
  const { 'transfer-encoding': _chunked, ...sent } = headers;
  const upstream = request(
    { host: prism.host, port: prism.port, method: req.method, path: req.url, headers: { ...sent, 'content-length': String(body.length) } },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', (error) => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end(`The mock could not reach Prism: ${error.message}`);
  });
  upstream.end(body);
}
