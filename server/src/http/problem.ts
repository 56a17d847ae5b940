// The one place where errors become RFC 9457 application/problem+json responses.
import type { ErrorRequestHandler } from 'express';
import { ApiError, BadRequestError, InternalError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../errors.js';
import { type BufferedReply, jsonReply } from './reply.js';

interface BodyParserError {
  type: string;
  status: number;
  limit?: number;
}

function classify(error: unknown): ApiError | null {
  if (error instanceof ApiError) return error;
  const parserError = error as Partial<BodyParserError>;
  if (parserError?.type === 'entity.too.large')
    return new PayloadTooLargeError('payload_too_large', `The request body exceeds this operation's limit of ${parserError.limit} bytes.`);
  if (parserError?.type === 'entity.parse.failed') return new BadRequestError('malformed_json', 'The request body is not valid JSON.');
  if (parserError?.type === 'encoding.unsupported' || parserError?.type === 'charset.unsupported') {
    return new UnsupportedMediaTypeError('unsupported_media_type', 'The request body must be UTF-8 JSON.');
  }
  return null;
}

/** The RFC 9457 body of an error; `instance` is omitted when the request's path is unknown. */
export function problemOf(error: ApiError, instance: string | null, requestId: string) {
  return {
    type: `https://groundcheck.dev/problems/${error.code}`,
    title: error.title,
    status: error.status,
    detail: error.detail,
    ...(instance === null ? {} : { instance }),
    code: error.code,
    request_id: requestId,
    ...(error.fieldErrors.length > 0 ? { errors: error.fieldErrors } : {}),
  };
}

/** The problem response for an error, or null when it is not one the API describes (a bug, an outage). */
export function problemReply(error: unknown, instance: string | null, requestId: string): BufferedReply | null {
  const problem = classify(error);
  if (!problem) return null;
  const reply = jsonReply(problem.status, problemOf(problem, instance, requestId), 'application/problem+json; charset=utf-8');
  return { ...reply, headers: { ...reply.headers, ...problem.headers } };
}

export const problemHandler: ErrorRequestHandler = (error, req, res, _next) => {
  // The answer was given already (the request's deadline came first): the work's later failure is nobody's.
  if (res.writableEnded) {
    req.ctx.log.debug({ err: error }, 'the request failed after it was answered');
    return;
  }
  const clientGone = res.destroyed || (error as Partial<Error>)?.name === 'AbortError';
  // The client went away while sending its body: nobody is left to answer, and nothing went wrong here.
  // The parser names it, unless the closed socket was seen first (a loaded machine): then the body is incomplete.
  if ((error as Partial<BodyParserError>)?.type === 'request.aborted' || (clientGone && !req.complete)) {
    req.ctx.log.info('client aborted the request while sending its body');
    return res.destroy();
  }
  // The client went away while the work ran (its signal stopped the work): nobody is left to answer.
  if (clientGone) {
    req.ctx.log.debug('client aborted the request; its work was stopped');
    return res.destroy();
  }
  let reply = problemReply(error, req.path, req.ctx.requestId);
  if (!reply) {
    // Details stay in the server log; the client learns only the request id.
    req.ctx.log.error({ err: error }, 'unexpected error');
    reply = problemReply(
      new InternalError('internal_error', 'An unexpected error occurred. Quote the request id when reporting it.'),
      req.path,
      req.ctx.requestId,
    )!;
  }
  if (res.headersSent) return res.destroy();
  for (const [name, value] of Object.entries(reply.headers)) res.setHeader(name, value);
  res.status(reply.status).end(reply.body);
};
