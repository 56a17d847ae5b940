// Idempotency-Key on the operations that declare it (decision 32): the first response to a key is
// stored before it is sent and replayed for 24 hours, so a retried validation is not recorded twice.
import { createHash } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import type { Principal } from '../auth/principal.js';
import { ConflictError } from '../errors.js';
import { canonicalJson } from '../services/canonical-json.js';
import type { Logger } from '../logger.js';
import type { IdempotencyRecord, IdempotencyStore, StoredResponse } from '../store/idempotency-store.js';
import { principalOf } from './context.js';

/** The headers that belong to the stored response; request id and rate-limit headers are the replay's own. */
const storedHeaders = ['content-type', 'content-disposition'];

export function idempotency(store: IdempotencyStore): RequestHandler {
  return async (req, res, next) => {
    const operation = req.ctx.operation!;
    const key = req.get('idempotency-key');
    if (!operation.idempotent || key === undefined) return next();
    const principal = principalOf(req.ctx);
    const fingerprint = fingerprintOf(operation.operationId, principal, req.body);
    const claim = await store.claim(principal.tenant.customerId, key, operation.operationId, fingerprint);
    if (!claim.claimed) {
      const { record } = claim;
      if (record.fingerprint !== fingerprint) {
        throw new ConflictError('idempotency_key_reused', 'This Idempotency-Key was already used for a different request; send a new key with a new request.');
      }
      if (record.state !== 'completed' || !record.response) {
        throw new ConflictError('idempotency_in_progress', 'The first request with this Idempotency-Key is still running; retry once it has completed.');
      }
      return replay(res, record.response);
    }
    storeOnEnd(res, claim.record, store, req.ctx.log);
    next();
  };
}

/**
 * The same caller asking the same thing: operation, principal and body (credentials were already
 * dropped from it). The principal is part of it so that a key never replays one user's result to
 * another user of the tenant, whose data-access roles may differ.
 */
function fingerprintOf(operationId: string, principal: Principal, body: unknown): string {
  return createHash('sha256').update(canonicalJson([operationId, principal.type, principal.id, body ?? {}])).digest('hex');
}

function replay(res: Response, stored: StoredResponse): void {
  for (const [name, value] of Object.entries(stored.headers)) res.setHeader(name, value);
  res.setHeader('Idempotent-Replayed', 'true');
  res.status(stored.status).end(Buffer.from(stored.body, 'base64'));
}

/**
 * Collects the response body and, when the handler ends the response, stores it (or forgets the key
 * after a 5xx or 429, so that a retry can succeed) before the response leaves: a client that retries
 * at once finds the stored response, not the in-progress record.
 */
function storeOnEnd(res: Response, record: IdempotencyRecord, store: IdempotencyStore, log: Logger): void {
  const chunks: Buffer[] = [];
  const collect = (chunk: unknown, encoding: unknown) => {
    if (chunk === undefined || chunk === null) return;
    chunks.push(chunk instanceof Uint8Array ? Buffer.from(chunk) : Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
  };
  let ended = false;
  const write = res.write;
  const end = res.end;
  res.write = function (this: Response, chunk: unknown, ...rest: unknown[]) {
    collect(chunk, rest[0]);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as Response['write'];
  res.end = function (this: Response, ...args: unknown[]) {
    if (ended) return this;
    ended = true;
    const callbackAt = args.findIndex((arg) => typeof arg === 'function');
    const [chunk, encoding] = callbackAt === -1 ? args : args.slice(0, callbackAt);
    collect(chunk, encoding);
    const status = res.statusCode;
    const outcome: Promise<void> =
      status >= 500 || status === 429
        ? store.release(record)
        : store.complete(record, {
            status,
            headers: Object.fromEntries(storedHeaders.flatMap((name) => (res.hasHeader(name) ? [[name, String(res.getHeader(name))]] : []))),
            body: Buffer.concat(chunks).toString('base64'),
          });
    outcome
      .catch(async (error: unknown) => {
        log.error({ err: error }, 'could not store the idempotent response');
        // Without a stored response the key would read as "in progress" until abandoned: free it.
        await store.release(record).catch(() => undefined);
      })
      .then(() => (end as (...a: unknown[]) => Response).apply(res, args))
      .catch((error: unknown) => log.error({ err: error }, 'could not send the response'));
    return this;
  } as Response['end'];
  // A client that disconnects does not release the key: the handler still runs to its end, and its
  // response is stored for the retry. A response that never ends leaves the record in progress until
  // the store treats it as abandoned.
}
