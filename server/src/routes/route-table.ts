import type { Request, RequestHandler, Response } from 'express';
import { NotImplementedError } from '../errors.js';
import type { operations } from '../generated/openapi.js';

export type OperationId = keyof operations;
export type Handler = (req: Request, res: Response) => unknown;
/** Handlers keyed by the contract's operationId; each tag's file contributes its own. */
export type RouteTable = Partial<Record<OperationId, Handler>>;

export function dispatch(table: RouteTable): RequestHandler {
  return async (req, res) => {
    const operation = req.ctx.operation!;
    const handler = Object.hasOwn(table, operation.operationId) ? table[operation.operationId as OperationId] : undefined;
    if (!handler) {
      throw new NotImplementedError('not_implemented', `${operation.method} ${operation.pathTemplate} is in the contract but this server does not serve it yet.`);
    }
    await handler(req, res);
  };
}
