import type { ReadinessService } from '../services/health/readiness.js';
import { type OperationTable, StatusReply } from './operation.js';

export function healthOperations(readiness: ReadinessService) {
  return {
    getHealth: async () => ({ status: 'ok' as const }),
    getReadiness: async () => {
      const { ready, shuttingDown, checks } = await readiness.check();
      const body = {
        status: ready ? ('ok' as const) : ('unavailable' as const),
        ...(shuttingDown ? { shutting_down: true } : {}),
        checks: checks as { cosmos: 'ok' | 'unavailable'; storage: 'ok' | 'unavailable' },
      };
      return ready ? body : new StatusReply<'getReadiness', 503>(503, body);
    },
  } satisfies OperationTable;
}
