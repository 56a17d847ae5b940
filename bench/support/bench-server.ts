// The reference server in the benchmark's own process, on the patched emulator, serving the
// tenants given (written to a tenant file in `dir`), with a rate limit no benchmark reaches.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { loadConfig } from '../../server/src/config.js';
import { buildContainer, type Container } from '../../server/src/container.js';
import { createLogger } from '../../server/src/logger.js';
import { listen, type RunningServer } from '../../server/src/server.js';
import { generateApiKey } from '../../server/src/services/auth/api-keys.js';
import type { Tenant } from '../../server/src/tenants/tenant.js';
import { loadTenantFile } from '../../server/src/tenants/tenant-file.js';
import { startPatchedEmulator } from './patched-emulator.js';

export interface BenchServer {
  container: Container;
  server: RunningServer;
  tenants: Tenant[];
  /** Stops the server and the emulator. */
  close(): Promise<void>;
}

export async function startBenchServer(dir: string, tenants: object[]): Promise<BenchServer> {
  const { endpoint, child } = await startPatchedEmulator();
  const tenantsFile = join(dir, 'tenants.yaml');
  writeFileSync(tenantsFile, stringify({ tenants }));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    TENANTS_FILE: tenantsFile,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    COSMOS_ENDPOINT: endpoint,
    COSMOS_KEY: Buffer.from('benchmark').toString('base64'),
    JWT_SECRET: generateApiKey().key,
  });
  const container = await buildContainer(config, createLogger(config.logLevel));
  const server = await listen(container);
  return {
    container,
    server,
    tenants: loadTenantFile(tenantsFile, { historyTtlDays: config.historyTtlDays, region: config.region }),
    async close() {
      await server.close();
      child.kill();
    },
  };
}

/** `--name=N` from the command line, a positive whole number, or `fallback`. */
export function numberArgument(name: string, fallback: number): number {
  const raw = process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1];
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`--${name} must be a positive whole number`);
  return value;
}
