// Opens the Cosmos DB database: the configured account, or an in-process emulator when none is.
import type { AddressInfo } from 'node:net';
import { type ConnectionPolicy, type Container, CosmosClient, type CosmosClientOptions, type Database } from '@azure/cosmos';
import { DefaultAzureCredential } from '@azure/identity';
import { defaultStoreTimeoutMs } from '../config.js';
import type { Logger } from '../logger.js';
import { type ContainerName, containerDefinitions } from './containers.js';
import { cosmosSpans } from './cosmos-spans.js';
import { storeDeadline, storeOutages } from './cosmos-status.js';
import { createEmbeddedCosmos } from './embedded-cosmos.js';

/** The configured Cosmos DB account cannot be reached or refuses the database at start. */
export class CosmosUnavailableError extends Error {
  override name = 'CosmosUnavailableError';
}

export interface CosmosStore {
  database: Database;
  /** The account's address, for a second client to the same account (as another process would open). */
  endpoint: string;
  container(name: ContainerName): Container;
  embedded: boolean;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

interface Options {
  /** `key` null signs in with the Azure identity (DefaultAzureCredential). */
  cosmos: { endpoint: string; key: string | null } | null;
  databaseId: string;
  log: Logger;
  /** Each operation's bound, the SDK's retries included (STORE_TIMEOUT_MS). */
  timeoutMs?: number;
}

export async function openCosmos({ cosmos, databaseId, log, timeoutMs = defaultStoreTimeoutMs }: Options): Promise<CosmosStore> {
  let emulator: ReturnType<typeof createEmbeddedCosmos> | null = null;
  let endpoint: string;
  let key: string | null;
  if (cosmos) {
    ({ endpoint, key } = cosmos);
  } else {
    try {
      emulator = createEmbeddedCosmos();
    } catch (error) {
      // A production install (the container image) leaves out the emulators, which are development dependencies.
      if ((error as { code?: string }).code !== 'MODULE_NOT_FOUND') throw error;
      throw new CosmosUnavailableError(
        'COSMOS_ENDPOINT is not set and the embedded Cosmos DB emulator is not installed (a development dependency): set COSMOS_ENDPOINT',
      );
    }
    await new Promise<void>((resolve) => emulator!.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(emulator.address() as AddressInfo).port}`;
    key = Buffer.from('embedded-emulator').toString('base64');
    log.warn(
      { cosmos: 'embedded' },
      'COSMOS_ENDPOINT is not set: using the embedded in-memory Cosmos DB emulator. ALL DATA IS HELD IN MEMORY AND LOST ON EXIT.',
    );
  }
  // Without a key: managed identity in Azure, developer credentials locally (DefaultAzureCredential);
  // the identity needs a Cosmos DB data-plane role on the account (docs/deploy.md).
  const client = new CosmosClient({
    endpoint,
    ...(key ? { key } : { aadCredentials: new DefaultAzureCredential() }),
    connectionPolicy: {
      enableEndpointDiscovery: false,
      // One request, and the SDK's waits after throttling, fit in the operation's bound (storeDeadline).
      requestTimeout: timeoutMs,
      retryOptions: { maxRetryAttemptCount: 9, maxWaitTimeInSeconds: Math.ceil(timeoutMs / 1000) } as ConnectionPolicy['retryOptions'],
    },
    // `plugins` is public in the SDK's exports but left out of the options' type (marked hidden).
    ...({ plugins: [storeOutages, storeDeadline(timeoutMs), cosmosSpans] } as Pick<CosmosClientOptions, never>),
  });
  let database: Database;
  const containers = new Map<ContainerName, Container>();
  try {
    ({ database } = await client.databases.createIfNotExists({ id: databaseId }));
    for (const definition of containerDefinitions) {
      const { container } = await database.containers.createIfNotExists(definition);
      containers.set(definition.id, container);
    }
  } catch (error) {
    client.dispose();
    if (emulator) await new Promise<void>((resolve) => emulator!.close(() => resolve()));
    // The endpoint is configuration, not a secret; the key is never part of the message.
    const reason = (error as { code?: string }).code ?? (error as Error).message.split('\n')[0];
    throw new CosmosUnavailableError(
      `Cosmos DB at ${endpoint} could not be opened (${reason}): check COSMOS_ENDPOINT, COSMOS_KEY and the network`,
    );
  }
  return {
    database,
    endpoint,
    embedded: emulator !== null,
    container: (name) => containers.get(name)!,
    async ping() {
      try {
        // A readiness probe must answer quickly even when the account does not.
        await database.read({ abortSignal: AbortSignal.timeout(2000) });
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      client.dispose();
      if (emulator) await new Promise<void>((resolve) => emulator!.close(() => resolve()));
    },
  };
}
