// Runs the operation's handler with a CallContext and writes what it returns: JSON (checked against
// the contract outside production), another declared status, or a stream. Idempotent operations go
// through the key's record first. A list leaves out, with a warning, any item that breaks the
// contract (a stored item written by an older version, or damaged): one bad item never costs the
// tenant the whole list.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Request, RequestHandler, Response } from 'express';
import type { ContractValidator } from '../contract/validator.js';
import { InternalError, NotImplementedError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { IdempotencyKeys } from '../ports/idempotency-keys.js';
import { type Operation, type OperationId, type OperationTable, StatusReply, Streamed } from '../routes/operation.js';
import type { CallContext, KeyedCall } from '../services/call-context.js';
import { runIdempotently } from './idempotency.js';
import { problemReply } from './problem.js';
import { type BufferedReply, jsonReply } from './reply.js';

export interface DispatchOptions {
  operations: OperationTable;
  idempotency: IdempotencyKeys;
  /** Checks the items of list responses, in every environment. */
  contract: ContractValidator;
  /** Checks JSON responses against the contract (outside production); null skips the check. */
  responses: ContractValidator | null;
}

export function dispatch({ operations, idempotency, contract, responses }: DispatchOptions): RequestHandler {
  return async (req, res) => {
    const operation = req.ctx.operation!;
    const handler = Object.hasOwn(operations, operation.operationId)
      ? (operations[operation.operationId as OperationId] as Operation<OperationId> | undefined)
      : undefined;
    if (!handler) {
      throw new NotImplementedError(
        'not_implemented',
        `${operation.method} ${operation.pathTemplate} is in the contract but this server does not serve it yet.`,
      );
    }
    const ctx = callContextOf(req, res);
    const run = async (keyed: KeyedCall | null) =>
      render(
        operation.operationId,
        withoutNonconforming(operation.operationId, await handler(req.body ?? {}, { ...ctx, keyed }), contract, ctx.log),
        responses,
        ctx.log,
      );
    const key = operation.idempotent ? req.get('idempotency-key') : undefined;
    const reply =
      key === undefined
        ? await run(null)
        : await runIdempotently(
            idempotency,
            {
              operationId: operation.operationId,
              key,
              principal: ctx.principal!,
              body: req.body,
              path: (req.ctx.params ?? {}) as Record<string, string>,
              clock: ctx.clock,
              log: ctx.log,
            },
            run,
            (error) => problemReply(error, req.path, ctx.requestId),
          );
    await send(res, reply);
  };
}

function callContextOf(req: Request, res: Response): CallContext<never> {
  const disconnected = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) disconnected.abort();
  });
  const { requestId, log, clock, principal, rateLimit, params, deadline } = req.ctx;
  return {
    requestId,
    log,
    clock,
    abortSignal: deadline ? AbortSignal.any([disconnected.signal, deadline]) : disconnected.signal,
    clientAddress: req.ip ?? 'unknown',
    principal: principal ?? null,
    tenant: principal?.tenant ?? null,
    rateLimit: rateLimit ?? null,
    path: (params ?? {}) as never,
    keyed: null,
  };
}

/** The fields that name a listed item, in the contract's schemas. */
const itemIdKeys = ['event_id', 'validation_id', 'group_id', 'template_id', 'user_id', 'id'];

/** A list response without the items that break the contract; anything else as it is. */
function withoutNonconforming(operationId: string, result: unknown, contract: ContractValidator, log: Logger): unknown {
  if (result instanceof Streamed || result instanceof StatusReply) return result;
  const bad = contract.nonconformingItems(operationId, result);
  if (bad.length === 0) return result;
  const items = (result as { data: unknown[] }).data;
  for (const { index, errors } of bad) {
    const item = (items[index] ?? {}) as Record<string, unknown>;
    const id = itemIdKeys.map((key) => item[key]).find((value) => typeof value === 'string') ?? null;
    log.warn({ operation: operationId, item: id, errors }, 'a stored item breaks the contract and is left out of the list');
  }
  const dropped = new Set(bad.map(({ index }) => index));
  return { ...(result as object), data: items.filter((_, i) => !dropped.has(i)) };
}

function render(operationId: string, result: unknown, responses: ContractValidator | null, log: Logger): BufferedReply | Streamed {
  if (result instanceof Streamed) return result;
  const [status, body] = result instanceof StatusReply ? [Number(result.status), result.body] : [200, result];
  const problems = responses?.responseErrors(operationId, status, body);
  if (problems) {
    log.error({ operation: operationId, status, problems }, 'the response breaks the contract');
    throw new InternalError('internal_error', 'An unexpected error occurred. Quote the request id when reporting it.');
  }
  return jsonReply(status, body);
}

/**
 * Sends the reply. A stream is sent as its chunks come, waiting while the client is slower than the
 * store; a client that goes away stops the reading, and a failure mid-way cuts the connection, so a
 * truncated document never looks complete.
 */
async function send(res: Response, reply: BufferedReply | Streamed): Promise<void> {
  // The request's deadline answered first (request-deadline.ts).
  if (res.headersSent) return;
  if (!(reply instanceof Streamed)) {
    for (const [name, value] of Object.entries(reply.headers)) res.setHeader(name, value);
    res.status(reply.status).end(reply.body);
    return;
  }
  if (reply.filename) res.attachment(reply.filename);
  res.setHeader('Content-Type', reply.contentType);
  try {
    await pipeline(Readable.from(reply.chunks, { highWaterMark: 1 }), res);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE' && res.destroyed) return;
    throw error;
  }
}
