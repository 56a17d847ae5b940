// Reads JSON request bodies: UTF-8, uncompressed, within the operation's size limit. Anything else
// is refused with a problem before a byte of it is interpreted.
import { isUtf8 } from 'node:buffer';
import contentType from 'content-type';
import express, { type RequestHandler } from 'express';
import { BadRequestError, PayloadTooLargeError, RequestTimeoutError, UnsupportedMediaTypeError } from '../errors.js';
import { problemReply } from './problem.js';

/** The largest body an operation with credentials accepts (decision row 71). */
export const bodyLimitBytes = 1024 * 1024;
/** Operations without credentials (login) need only a few fields; anyone can send them. */
export const anonymousBodyLimitBytes = 8 * 1024;
/**
 * Object members in one body. The largest valid body of the contract has about 1 500 (a template
 * schema of 200 fields); enumerating 100 000 keys of one object costs the event loop ~20 ms.
 */
export const maxBodyMembers = 10_000;

/**
 * Counts object members (a `:` outside strings) in the raw bytes, before JSON.parse builds them: a
 * scan of 1 MiB costs about a millisecond; parsing and enumerating 100 000 members, a hundred.
 */
export function assertMemberCount(body: Uint8Array, max = maxBodyMembers): void {
  let members = 0;
  let inString = false;
  for (let i = 0; i < body.length; i += 1) {
    const byte = body[i];
    if (inString) {
      if (byte === 0x5c)
        i += 1; // the escaped byte cannot end the string
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x3a && ++members > max) {
      throw new PayloadTooLargeError('payload_too_large', `The request body has more than ${max} object members.`);
    }
  }
}

/** The JSON text must be UTF-8 (RFC 8259): the decoder would otherwise store U+FFFD in place of the bad bytes. */
function assertUtf8(body: Uint8Array): void {
  if (!isUtf8(body)) throw new BadRequestError('malformed_json', 'The request body is not valid JSON: it is not valid UTF-8.');
}

/**
 * Reads JSON bodies. A request without credentials in its headers (no bearer token: its API key, if
 * any, is in the body) has `unauthenticatedTimeoutMs` to send its body, not the whole request timeout:
 * nobody holds a connection open for minutes without showing who they are.
 */
export function parseBodies(unauthenticatedTimeoutMs: number): RequestHandler {
  // Not strict: a top-level `null`, string, number or boolean is JSON, and the contract check says
  // what is wrong with it (decision S96).
  const parse = (limit: number) =>
    express.json({
      limit,
      inflate: false,
      strict: false,
      type: () => true,
      verify: (_req, _res, body) => {
        assertUtf8(body);
        assertMemberCount(body);
      },
    });
  const large = parse(bodyLimitBytes);
  const small = parse(anonymousBodyLimitBytes);
  return (req, res, next) => {
    if (!carriesBody(req.headers)) return next();
    const encoding = req.headers['content-encoding'];
    if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
      throw new UnsupportedMediaTypeError(
        'unsupported_media_type',
        'Request bodies must not be compressed: send them without Content-Encoding.',
      );
    }
    if (!isUtf8Json(req.headers['content-type'])) {
      throw new UnsupportedMediaTypeError(
        'unsupported_media_type',
        'Send the request body as UTF-8 JSON (Content-Type: application/json).',
      );
    }
    const parser = req.ctx.operation!.requiredRole === 'none' ? small : large;
    // Only a caller whose token was verified (authenticate.ts, before this) may send its body slowly.
    if (!req.ctx.principal) {
      const deadline = setTimeout(() => {
        const seconds = unauthenticatedTimeoutMs / 1000;
        const problem = new RequestTimeoutError(
          'request_timeout',
          `A request without credentials in its headers must send its body within ${seconds} seconds.`,
        );
        const reply = problemReply(problem, req.path, req.ctx.requestId)!;
        res.setHeader('Connection', 'close');
        for (const [name, value] of Object.entries(reply.headers)) res.setHeader(name, value);
        res.status(reply.status).end(reply.body, () => req.destroy());
      }, unauthenticatedTimeoutMs);
      req.once('end', () => clearTimeout(deadline));
      res.once('close', () => clearTimeout(deadline));
    }
    parser(req, res, next);
  };
}

function isUtf8Json(header: string | undefined): boolean {
  if (header === undefined) return false;
  let parsed: contentType.ParsedMediaType;
  try {
    parsed = contentType.parse(header);
  } catch {
    return false;
  }
  const charset = parsed.parameters.charset?.toLowerCase();
  return (
    (parsed.type === 'application/json' || /^application\/[^/]+\+json$/.test(parsed.type)) && (charset === undefined || charset === 'utf-8')
  );
}

/** A request has a body when it says so with a non-zero Content-Length or with Transfer-Encoding. */
function carriesBody(headers: { 'content-length'?: string; 'transfer-encoding'?: string }): boolean {
  return headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0');
}
