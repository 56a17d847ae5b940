// Idempotency-Key on the operations that declare it (decision 32: every operation that changes
// something): the first outcome for a key is stored before it is sent and replayed for 24 hours, so
// a retried call does not act twice.
// 4xx problems are stored too; 5xx and 429 are not, so a retry can succeed.
import { createHash } from 'node:crypto';
import { canonicalJson } from '@groundcheck/contract';
import { ConflictError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { IdempotencyKeys, IdempotencyRecord, StoredResponse } from '../ports/idempotency-keys.js';
import { Streamed } from '../routes/operation.js';
import type { Principal } from '../services/auth/principal.js';
import type { BufferedReply } from './reply.js';

/** The headers that belong to the stored response; request id and rate-limit headers are the replay's own. */
const storedHeaders = ['content-type', 'content-disposition'];

export interface IdempotentCall {
  operationId: string;
  key: string;
  principal: Principal;
  /** The validated body, credentials already dropped. */
  body: unknown;
  /** The path's parameters: the same body sent to another resource is another call. */
  path: Record<string, string>;
  now: Date;
  log: Logger;
}

/**
 * Runs `run` once per key: a repeat of the same call replays the stored outcome, a different call
 * with the key is refused. `asProblem` renders a thrown error as the response the client would get.
 * A client that disconnects does not release the key: `run` goes on to its end and its outcome is
 * stored for the retry.
 */
export async function runIdempotently(
  store: IdempotencyKeys,
  call: IdempotentCall,
  run: () => Promise<BufferedReply | Streamed>,
  asProblem: (error: unknown) => BufferedReply | null,
): Promise<BufferedReply | Streamed> {
  const fingerprint = fingerprintOf(call);
  const customerId = call.principal.tenant.customerId;
  const claim = await store.claim(customerId, call.key, call.operationId, fingerprint, call.now);
  if (!claim.claimed) return replay(claim.record, fingerprint);
  let reply: BufferedReply | Streamed;
  try {
    reply = await run();
  } catch (error) {
    const problem = asProblem(error);
    if (!problem || !storable(problem.status)) {
      await release(store, claim.record, call.log);
      throw error;
    }
    reply = problem;
  }
  // A stream is sent as it is produced and cannot be replayed: the key is freed for a retry.
  if (reply instanceof Streamed || !storable(reply.status)) {
    await release(store, claim.record, call.log);
    return reply;
  }
  const stored: StoredResponse = {
    status: reply.status,
    headers: Object.fromEntries(storedHeaders.flatMap((name) => (reply.headers[name] === undefined ? [] : [[name, reply.headers[name]!]]))),
    body: reply.body.toString('base64'),
  };
  try {
    await store.complete(claim.record, stored);
  } catch (error) {
    call.log.error({ err: error }, 'could not store the idempotent response');
    // Without a stored response the key would read as "in progress" until abandoned: free it.
    await release(store, claim.record, call.log);
  }
  return reply;
}

const storable = (status: number) => status < 500 && status !== 429;

function replay(record: IdempotencyRecord, fingerprint: string): BufferedReply {
  if (record.fingerprint !== fingerprint) {
    throw new ConflictError(
      'idempotency_key_reused',
      'This Idempotency-Key was already used for a different request; send a new key with a new request.',
    );
  }
  if (record.state !== 'completed' || !record.response) {
    throw new ConflictError(
      'idempotency_in_progress',
      'The first request with this Idempotency-Key is still running; retry once it has completed.',
    );
  }
  const { status, headers, body } = record.response;
  return { status, headers: { ...headers, 'idempotent-replayed': 'true' }, body: Buffer.from(body, 'base64') };
}

async function release(store: IdempotencyKeys, record: IdempotencyRecord, log: Logger): Promise<void> {
  await store.release(record).catch((error: unknown) => log.error({ err: error }, 'could not release an idempotency key'));
}

/**
 * The same caller asking the same thing: operation, principal and body. The principal is part of it
 * so that a key never replays one user's result to another user of the tenant, whose data-access
 * roles may differ.
 */
function fingerprintOf({ operationId, principal, body, path }: IdempotentCall): string {
  return createHash('sha256')
    .update(canonicalJson([operationId, principal.type, principal.id, body ?? {}, path]))
    .digest('hex');
}
