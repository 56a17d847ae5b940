// The reference server, configured from the environment as `npm start` is, with its Cosmos DB store
// replaced by the in-process stub (stub-store.ts): for the benchmark's "store stubbed" row only.
import { loadConfig } from '../../server/src/config.js';
import { buildContainer } from '../../server/src/container.js';
import { createLogger } from '../../server/src/logger.js';
import { listen } from '../../server/src/server.js';
import { stubStore } from './stub-store.js';

const config = loadConfig();
const container = await buildContainer(config, createLogger(config.logLevel), { cosmos: stubStore() });
await listen(container);
