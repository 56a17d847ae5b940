// The one place where errors become RFC 9457 application/problem+json responses.
import type { ErrorRequestHandler, Request } from 'express';
import {
  ApiError, BadRequestError, InternalError, NotFoundError, PayloadTooLargeError, UnsupportedMediaTypeError, type FieldError,
} from '../errors.js';

interface ValidatorError {
  status: number;
  errors?: { path: string; message: string }[];
  path?: string;
}

interface BodyParserError {
  type: string;
  status: number;
  limit?: number;
}

function isValidatorError(error: unknown): error is ValidatorError {
  return typeof error === 'object' && error !== null && 'status' in error && Array.isArray((error as ValidatorError).errors);
}

/** express-openapi-validator reports `/body/urls/0`, `/headers/idempotency-key`, `/path/id`. */
function toFieldError({ path, message }: { path: string; message: string }): FieldError {
  const [, where, ...rest] = path.split('/');
  const name = rest.join('/');
  if (where === 'headers') return { pointer: `header:${name}`, detail: message };
  if (where === 'path' || where === 'params') return { pointer: `path:${name}`, detail: message };
  if (where === 'body') return { pointer: `/${name}`, detail: message };
  return { pointer: path, detail: message };
}

function classify(error: unknown): ApiError | null {
  if (error instanceof ApiError) return error;
  const parserError = error as Partial<BodyParserError>;
  if (parserError?.type === 'entity.too.large') return new PayloadTooLargeError('payload_too_large', `The request body exceeds this operation's limit of ${parserError.limit} bytes.`);
  if (parserError?.type === 'entity.parse.failed') return new BadRequestError('malformed_json', 'The request body is not valid JSON.');
  if (parserError?.type === 'encoding.unsupported' || parserError?.type === 'charset.unsupported') {
    return new UnsupportedMediaTypeError('unsupported_media_type', 'The request body must be UTF-8 JSON.');
  }
  if (isValidatorError(error) && error.errors!.every((e) => !e.path.startsWith('/response'))) {
    if (error.status === 415) return new UnsupportedMediaTypeError('unsupported_media_type', 'Send the request body as application/json.');
    if (error.status === 404) return new NotFoundError('not_found', 'No operation exists at this path.');
    if (error.status === 400) {
      const fields = error.errors!.map(toFieldError);
      return new BadRequestError('invalid_request', `The request has ${fields.length} invalid field${fields.length === 1 ? '' : 's'}.`, fields);
    }
  }
  return null;
}

export function problemBody(error: ApiError, req: Request) {
  return problemOf(error, req.path, req.ctx.requestId);
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

export const problemHandler: ErrorRequestHandler = (error, req, res, _next) => {
  // The client went away while sending its body: nobody is left to answer, and nothing went wrong here.
  if ((error as Partial<BodyParserError>)?.type === 'request.aborted') {
    req.ctx.log.info('client aborted the request while sending its body');
    return res.destroy();
  }
  let problem = classify(error);
  if (!problem) {
    // Details stay in the server log; the client learns only the request id.
    req.ctx.log.error({ err: error }, 'unexpected error');
    problem = new InternalError('internal_error', 'An unexpected error occurred. Quote the request id when reporting it.');
  }
  if (res.headersSent) return res.destroy();
  for (const [name, value] of Object.entries(problem.headers)) res.setHeader(name, value);
  // Sent as text, not through res.json, so a problem is never itself run through response validation.
  res.status(problem.status).type('application/problem+json').send(JSON.stringify(problemBody(problem, req)));
};
