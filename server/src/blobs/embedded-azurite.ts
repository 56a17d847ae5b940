// Azurite's blob service in this process, in memory, on a free loopback port: storage for `npm start`
// and the tests when no account is configured, as the Cosmos emulator is for the database.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** Azurite's published development account (documented by Microsoft; not a secret). */
export const azuriteAccount = {
  name: 'devstoreaccount1',
  key: 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==',
};

// Azurite ships no type declarations for its internals; these are the members used here.
interface AzuriteBlobServer {
  start(): Promise<void>;
  close(): Promise<void>;
  getHttpServerAddress(): string;
}
type BlobServerClass = new (configuration: unknown) => AzuriteBlobServer;
type BlobConfigurationClass = new (...args: unknown[]) => unknown;

export interface EmbeddedAzurite {
  /** `http://127.0.0.1:<port>/devstoreaccount1` */
  endpoint: string;
  close(): Promise<void>;
}

export async function startEmbeddedAzurite(): Promise<EmbeddedAzurite> {
  // Azurite sends usage telemetry only after its CLI initialises it; switch it off anyway.
  const { AzuriteTelemetryClient } = require('azurite/dist/src/common/Telemetry.js') as {
    AzuriteTelemetryClient: { enableTelemetry: boolean };
  };
  AzuriteTelemetryClient.enableTelemetry = false;
  const BlobServer = (require('azurite/dist/src/blob/BlobServer.js') as { default: BlobServerClass }).default;
  const BlobConfiguration = (require('azurite/dist/src/blob/BlobConfiguration.js') as { default: BlobConfigurationClass }).default;
  const { MemoryExtentChunkStore, DEFAULT_EXTENT_MEMORY_LIMIT } = require('azurite/dist/src/common/persistence/MemoryExtentStore.js') as {
    MemoryExtentChunkStore: new (sizeLimit: number) => unknown;
    DEFAULT_EXTENT_MEMORY_LIMIT: number;
  };
  const configuration = new BlobConfiguration(
    '127.0.0.1',
    0, // a free port, read back below
    undefined, // keep-alive timeout: Azurite's default
    undefined, // metadata DB path: unused in memory
    undefined, // extent DB path: unused in memory
    undefined, // persistence paths: unused in memory
    false, // access log
    undefined,
    false, // debug log
    undefined,
    false, // loose mode
    true, // skip the API version check, so a newer SDK than this Azurite works
    '', // certificate
    '', // key
    '', // password
    undefined, // OAuth
    false, // product-style URLs
    true, // in-memory persistence
    // A chunk store of its own, so two instances in one process (tests) do not share files.
    new MemoryExtentChunkStore(DEFAULT_EXTENT_MEMORY_LIMIT),
  );
  const server = new BlobServer(configuration);
  await server.start();
  return {
    endpoint: `${server.getHttpServerAddress()}/${azuriteAccount.name}`,
    close: () => server.close(),
  };
}
