// What Cosmos DB's status codes mean to this server, in one place. Stores ask `cosmosOutcome` for
// the answers they handle (a missing item, a taken id, a lost ETag race); throttling and outages
// become 503 problems with Retry-After where they happen, in the client (`storeOutages`), and so
// does an operation that has not answered within the store timeout (`storeDeadline`), so no other
// layer needs to know Cosmos DB's errors.
import type { PluginConfig } from '@azure/cosmos';
import { storeStalled, UnavailableError } from '../errors.js';
import { withDeadline } from '../lib/deadline.js';

export type CosmosOutcome = 'not_found' | 'conflict' | 'precondition_failed' | 'throttled' | 'unavailable';

const outcomes = new Map<number, CosmosOutcome>([
  [404, 'not_found'],
  [409, 'conflict'],
  [412, 'precondition_failed'],
  [429, 'throttled'],
  [503, 'unavailable'],
]);

/** The outcome of a thrown Cosmos error or of a batch operation's status code; null for any other. */
export function cosmosOutcome(errorOrStatus: unknown): CosmosOutcome | null {
  const status = typeof errorOrStatus === 'number' ? errorOrStatus : (errorOrStatus as { code?: unknown } | null)?.code;
  return typeof status === 'number' ? (outcomes.get(status) ?? null) : null;
}

/** A 503 problem for an error that means the store cannot serve now (it retried already), else null. */
export function storeUnavailable(error: unknown): UnavailableError | null {
  const outcome = cosmosOutcome(error);
  if (outcome !== 'throttled' && outcome !== 'unavailable') return null;
  const retryAfterMs = (error as { retryAfterInMs?: unknown }).retryAfterInMs;
  const seconds = typeof retryAfterMs === 'number' && retryAfterMs > 0 ? Math.ceil(retryAfterMs / 1000) : 1;
  return new UnavailableError('service_unavailable', `The data store is busy or unavailable; retry in ${seconds} seconds.`, seconds);
}

/** An operation plugin: after the SDK's own retries, a throttled or unavailable store throws the 503 problem. */
export const storeOutages: PluginConfig = {
  on: 'operation',
  plugin: async (request, _diagnosticNode, next) => {
    try {
      return await next(request);
    } catch (error) {
      throw storeUnavailable(error) ?? error;
    }
  },
};

/** An operation plugin: an operation that has not answered within `timeoutMs`, the SDK's retries included, throws the 503 problem. */
export function storeDeadline(timeoutMs: number): PluginConfig {
  return {
    on: 'operation',
    plugin: (request, _diagnosticNode, next) => withDeadline(next(request), timeoutMs, () => storeStalled(timeoutMs)),
  };
}
