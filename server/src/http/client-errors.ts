// Requests that Node's HTTP parser refuses (bad header bytes, oversized headers, unknown methods,
// conflicting lengths, timeouts) never reach Express; they still get a problem body and a request id.
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type ApiError, BadRequestError, HeadersTooLargeError, RequestTimeoutError } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import { newId } from '../lib/ids.js';
import type { Logger } from '../logger.js';
import { problemOf } from './problem.js';

function problemFor(code: string | undefined): ApiError {
  if (code === 'HPE_HEADER_OVERFLOW') return new HeadersTooLargeError('headers_too_large', 'The request headers exceed 16 KiB.');
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return new RequestTimeoutError('request_timeout', 'The request was not received in time.');
  return new BadRequestError('malformed_request', 'The request is not valid HTTP/1.1 (its method, headers or framing).');
}

export function answerClientErrors(server: Server, log: Logger, clock: Clock): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // Nobody to answer, or a response already under way on this connection.
    if (error.code === 'ECONNRESET' || !socket.writable || (socket as Duplex & { _httpMessage?: unknown })._httpMessage) {
      socket.destroy();
      return;
    }
    const requestId = newId('req', clock.now().getTime());
    const problem = problemFor(error.code);
    log.debug({ request_id: requestId, code: error.code, status: problem.status }, 'request refused by the HTTP parser');
    const body = JSON.stringify(problemOf(problem, null, requestId));
    socket.end(
      [
        `HTTP/1.1 ${problem.status} ${problem.title}`,
        'Content-Type: application/problem+json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        `X-Request-Id: ${requestId}`,
        'Cache-Control: no-store',
        'X-Content-Type-Options: nosniff',
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  });
}
