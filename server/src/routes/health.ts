import type { CosmosStore } from '../store/cosmos.js';
import type { RouteTable } from './route-table.js';

export function healthRoutes(cosmos: CosmosStore): RouteTable {
  return {
    getHealth: (_req, res) => {
      res.json({ status: 'ok' });
    },
    getReadiness: async (_req, res) => {
      const ready = await cosmos.ping();
      res.status(ready ? 200 : 503).json({ status: ready ? 'ok' : 'unavailable', checks: { cosmos: ready ? 'ok' : 'unavailable' } });
    },
  };
}
