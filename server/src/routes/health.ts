import type { CosmosStore } from '../store/cosmos.js';
import { type OperationTable, StatusReply } from './operation.js';

export function healthOperations(cosmos: CosmosStore) {
  return {
    getHealth: async () => ({ status: 'ok' as const }),
    getReadiness: async () => {
      if (await cosmos.ping()) return { status: 'ok' as const, checks: { cosmos: 'ok' as const } };
      return new StatusReply<'getReadiness', 503>(503, { status: 'unavailable', checks: { cosmos: 'unavailable' } });
    },
  } satisfies OperationTable;
}
