// Entry point of `npm start`: configuration errors end the process with a clear message.

import { StorageConfigError } from './blobs/index.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { CosmosUnavailableError } from './cosmos/cosmos.js';
import { createLogger } from './logger.js';
import { type RunningServer, startServer } from './server.js';
import { startTelemetry } from './telemetry/telemetry.js';
import { TenantFileError } from './tenants/tenant-file.js';

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const log = createLogger(config.logLevel);
  // Before the server is built: its instruments and the Azure SDKs look the providers up.
  const telemetry = startTelemetry();
  if (telemetry.traces || telemetry.metrics)
    log.info({ traces: telemetry.traces, metrics: telemetry.metrics }, 'OpenTelemetry export is on');
  let server: RunningServer;
  try {
    server = await startServer(config, log);
  } catch (error) {
    if (error instanceof TenantFileError || error instanceof StorageConfigError || error instanceof CosmosUnavailableError) {
      log.fatal(error.message);
      process.exit(1);
    }
    throw error;
  }
  const shutdown = (signal: string) => {
    log.info(
      { signal, drain_ms: config.shutdownDrainMs },
      'shutting down: not ready from now on, then no new connections and the requests in flight finished',
    );
    // The drain, then at most 10 s for the requests in flight.
    const forced = setTimeout(() => process.exit(1), config.shutdownDrainMs + 10_000).unref();
    server
      .stop(config.shutdownDrainMs)
      .then(() => telemetry.shutdown())
      .then(() => {
        clearTimeout(forced);
        process.exit(0);
      });
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

await main();
