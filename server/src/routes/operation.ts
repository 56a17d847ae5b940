// Handler types drawn from the contract's generated `operations`: a handler receives its
// operation's validated body and returns its operation's 200 body, a stream, or another declared
// status. A handler that drifts from the contract does not compile.
import type { operations } from '@groundcheck/contract';
import type { CallContext } from '../services/call-context.js';

export type OperationId = keyof operations;

type JsonOf<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;
type Responses<Op extends OperationId> = operations[Op]['responses'];

/** The validated request body (`{}` when the caller sent none); API-key credentials are removed before. */
export type Body<Op extends OperationId> = [NonNullable<operations[Op]['requestBody']>] extends [never]
  ? Record<string, never>
  : JsonOf<NonNullable<operations[Op]['requestBody']>>;

export type PathParams<Op extends OperationId> = [NonNullable<operations[Op]['parameters']['path']>] extends [never]
  ? Record<string, never>
  : NonNullable<operations[Op]['parameters']['path']>;

/** The 200 JSON body. */
export type Ok<Op extends OperationId> = JsonOf<Responses<Op>[200 & keyof Responses<Op>]>;

/** A body sent as it is produced (CSV, JSON and ZIP exports), never held in memory whole. */
export class Streamed {
  constructor(
    readonly contentType: string,
    readonly chunks: AsyncIterable<string | Uint8Array>,
    readonly filename: string | null = null,
  ) {}
}

/** A declared status other than 200 with its JSON body (readiness answers 503 with its status). */
export class StatusReply<Op extends OperationId, Status extends Exclude<keyof Responses<Op>, 200>> {
  constructor(
    readonly status: Status,
    readonly body: JsonOf<Responses<Op>[Status]>,
  ) {}
}

export type Result<Op extends OperationId> = Ok<Op> | Streamed | StatusReply<Op, Exclude<keyof Responses<Op>, 200>>;

export type Operation<Op extends OperationId> = (body: Body<Op>, ctx: CallContext<PathParams<Op>>) => Promise<Result<Op>>;

/** Handlers keyed by operationId; each tag's route file declares its own with `satisfies`. */
export type OperationTable = { [Op in OperationId]?: Operation<Op> };
