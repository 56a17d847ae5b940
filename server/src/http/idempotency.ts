// Idempotency-Key on the operations that declare it (decision 32: every operation that changes
// something): the first outcome for a key is stored before it is sent and replayed for 24 hours, so
// a retried call does not act twice.
// 4xx problems are stored too; 5xx and 429 are not, so a retry can succeed.
// While a request runs it holds the key on a lease that it renews (decision S95). A retry after the
// holder died, or after it failed, takes the key over and runs with the same bound id: the handler
// finds what the earlier try wrote and finishes it instead of acting again.
import { createHash } from 'node:crypto';
import { canonicalJson } from '@groundcheck/contract';
import { ConflictError } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../logger.js';
import type { HeldKey, IdempotencyKeys, IdempotencyRecord, StoredResponse } from '../ports/idempotency-keys.js';
import { Streamed } from '../routes/operation.js';
import type { Principal } from '../services/auth/principal.js';
import type { KeyedCall } from '../services/call-context.js';
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
  clock: Clock;
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
  run: (keyed: KeyedCall) => Promise<BufferedReply | Streamed>,
  asProblem: (error: unknown) => BufferedReply | null,
): Promise<BufferedReply | Streamed> {
  const fingerprint = fingerprintOf(call);
  const customerId = call.principal.tenant.customerId;
  const now = call.clock.now();
  const claim = await store.claim(customerId, call.key, call.operationId, fingerprint, now);
  // The lease left is counted from now, not from before the claim: under load the claim's reads may
  // take a while, and a Retry-After counted from before them would outlast the lease.
  if (!claim.claimed) return replay(claim.record, fingerprint, call.clock.now());
  const { held } = claim;
  if (held.takenOver) call.log.info({ operation: call.operationId }, 'took over an Idempotency-Key whose holder stopped');
  const lease = new LeaseRenewal(store, held, call.clock, call.log);
  let reply: BufferedReply | Streamed;
  try {
    reply = await run({ boundId: held.record.bound_id, keyId: held.record.id, takenOver: held.takenOver });
  } catch (error) {
    const problem = asProblem(error);
    if (!problem || !storable(problem.status)) {
      await release(store, lease, call.log);
      throw error;
    }
    reply = problem;
  }
  // A stream is sent as it is produced and cannot be replayed: the key is freed for a retry.
  if (reply instanceof Streamed || !storable(reply.status)) {
    await release(store, lease, call.log);
    return reply;
  }
  const stored: StoredResponse = {
    status: reply.status,
    headers: Object.fromEntries(storedHeaders.flatMap((name) => (reply.headers[name] === undefined ? [] : [[name, reply.headers[name]!]]))),
    body: reply.body.toString('base64'),
  };
  await lease.stop();
  try {
    await store.complete(held, stored);
  } catch (error) {
    call.log.error({ err: error }, 'could not store the idempotent response');
    // Without a stored response the key would read as "in progress" until its lease ran out: end it now.
    await release(store, lease, call.log);
  }
  return reply;
}

/**
 * Renews the held key's lease every third of its length while the request runs. A renewal that
 * finds the key taken over stops renewing: the request runs on, and its writes meet the other try's
 * under the same bound id.
 */
class LeaseRenewal {
  private readonly timer: NodeJS.Timeout;
  private renewing: Promise<void> = Promise.resolve();
  private lost = false;

  constructor(
    private readonly store: IdempotencyKeys,
    readonly held: HeldKey,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {
    this.timer = setInterval(
      () => {
        this.renewing = this.renewing.then(() => this.renew());
      },
      Math.max(1, Math.floor(store.leaseMs / 3)),
    );
    this.timer.unref();
  }

  /** Stops renewing once a renewal under way has finished, so that the held key's ETag is current. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.renewing;
  }

  private async renew(): Promise<void> {
    if (this.lost) return;
    try {
      if (await this.store.renew(this.held, this.clock.now())) return;
      this.lost = true;
      clearInterval(this.timer);
      this.log.warn('lost the lease on an Idempotency-Key to a retry that took it over');
    } catch (error) {
      // The store is stalled: the next tick tries again, and the lease may run out meanwhile.
      this.log.warn({ err: error }, 'could not renew the lease on an Idempotency-Key');
    }
  }
}

const storable = (status: number) => status < 500 && status !== 429;

function replay(record: IdempotencyRecord, fingerprint: string, now: Date): BufferedReply {
  if (record.fingerprint !== fingerprint) {
    throw new ConflictError(
      'idempotency_key_reused',
      'This Idempotency-Key was already used for a different request; send a new key with a new request.',
    );
  }
  if (record.state !== 'completed' || !record.response) {
    // The holder renews its lease while it works: retry once it would have run out.
    const leaseLeftMs = record.lease_until ? Date.parse(record.lease_until) - now.getTime() : 0;
    const seconds = Math.max(1, Math.ceil(leaseLeftMs / 1000));
    const problem = new ConflictError(
      'idempotency_in_progress',
      `The first request with this Idempotency-Key is still running; retry in ${seconds} seconds.`,
    );
    problem.headers['Retry-After'] = String(seconds);
    throw problem;
  }
  const { status, headers, body } = record.response;
  return { status, headers: { ...headers, 'idempotent-replayed': 'true' }, body: Buffer.from(body, 'base64') };
}

/** Gives the key up after a failure or a stream: a retry takes it over at once, with the same bound id. */
async function release(store: IdempotencyKeys, lease: LeaseRenewal, log: Logger): Promise<void> {
  await lease.stop();
  await store.release(lease.held).catch((error: unknown) => log.error({ err: error }, 'could not release an idempotency key'));
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
