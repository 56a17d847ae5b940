// Opens object storage: the configured Azure account, or an in-process Azurite when none is.
import { DefaultAzureCredential } from '@azure/identity';
import { BlobServiceClient, type StoragePipelineOptions, StorageSharedKeyCredential } from '@azure/storage-blob';
import { defaultStoreTimeoutMs } from '../config.js';
import type { Logger } from '../logger.js';
import { createAzureBlobStorage } from './azure-blob-storage.js';
import { azuriteAccount, type EmbeddedAzurite, startEmbeddedAzurite } from './embedded-azurite.js';
import type { ObjectStorage } from './object-storage.js';
import { accountKeySigner, type SasSigner, userDelegationSigner } from './sas-signer.js';

/**
 * AZURE_STORAGE_CONNECTION_STRING, or an account name with its key (null: the Azure identity signs
 * in, and upload URLs are user-delegation SAS), or nothing for the embedded emulator.
 */
export type StorageAccount =
  | { connectionString: string }
  | { accountName: string; accountKey: string | null /** Default `https://<account>.blob.core.windows.net`. */; endpoint?: string }
  | null;

export interface OpenObjectStorageOptions {
  account: StorageAccount;
  container: string;
  log: Logger;
  /** Each call's bound, the pipeline's retries included (STORE_TIMEOUT_MS). */
  timeoutMs?: number;
}

/** Azure's container-name rule: 3–63 lower-case letters, digits and single hyphens. */
const containerNamePattern = /^(?=.{3,63}$)[a-z0-9]+(-[a-z0-9]+)*$/;

export class StorageConfigError extends Error {
  override readonly name = 'StorageConfigError';
}

export async function openObjectStorage({
  account,
  container,
  log,
  timeoutMs = defaultStoreTimeoutMs,
}: OpenObjectStorageOptions): Promise<ObjectStorage> {
  if (!containerNamePattern.test(container)) {
    throw new StorageConfigError(`Container name "${container}" must be 3-63 lower-case letters, digits and single hyphens.`);
  }
  // Each try gets the whole bound; `bounded` (azure-blob-storage.ts) stops the call at it, retries and all.
  const pipeline: StoragePipelineOptions = { retryOptions: { maxTries: 3, tryTimeoutInMs: timeoutMs } };
  const { serviceClient, sign, emulator } = await connect(account, log, pipeline);
  const containerClient = serviceClient.getContainerClient(container);
  try {
    await containerClient.createIfNotExists();
    if (emulator) {
      // Browsers on any origin may PUT to the embedded emulator; a real account's CORS is the operator's.
      await serviceClient.setProperties({
        cors: [
          {
            allowedOrigins: '*',
            allowedMethods: 'PUT',
            allowedHeaders: 'content-type,x-ms-*',
            exposedHeaders: 'x-ms-*',
            maxAgeInSeconds: 600,
          },
        ],
      });
    }
  } catch (error) {
    await emulator?.close();
    throw error;
  }
  return createAzureBlobStorage({
    sign,
    container: containerClient,
    embedded: emulator !== null,
    timeoutMs,
    ...(emulator && { onClose: emulator.close }),
  });
}

interface Connection {
  serviceClient: BlobServiceClient;
  sign: SasSigner;
  emulator: EmbeddedAzurite | null;
}

async function connect(account: StorageAccount, log: Logger, pipeline: StoragePipelineOptions): Promise<Connection> {
  if (account === null) return connectToEmbeddedAzurite(log, pipeline);
  if ('connectionString' in account) return connectWithConnectionString(account.connectionString, pipeline);
  return connectToAccount(account, pipeline);
}

async function connectToEmbeddedAzurite(log: Logger, pipeline: StoragePipelineOptions): Promise<Connection> {
  let emulator: EmbeddedAzurite;
  try {
    emulator = await startEmbeddedAzurite();
  } catch (error) {
    // A production install (the container image) leaves out the emulators, which are development dependencies.
    if ((error as { code?: string }).code !== 'MODULE_NOT_FOUND') throw error;
    throw new StorageConfigError(
      'No storage account is configured and the embedded Azurite emulator is not installed (a development dependency): set AZURE_STORAGE_CONNECTION_STRING or AZURE_STORAGE_ACCOUNT',
    );
  }
  const credential = new StorageSharedKeyCredential(azuriteAccount.name, azuriteAccount.key);
  const serviceClient = new BlobServiceClient(emulator.endpoint, credential, pipeline);
  const sign = accountKeySigner(credential);
  log.warn(
    { storage: 'embedded', endpoint: emulator.endpoint },
    'AZURE_STORAGE_CONNECTION_STRING is not set: using the embedded in-memory Azurite blob emulator. ALL UPLOADED FILES ARE HELD IN MEMORY AND LOST ON EXIT.',
  );
  return { serviceClient, sign, emulator };
}

function connectWithConnectionString(connectionString: string, pipeline: StoragePipelineOptions): Connection {
  const serviceClient = BlobServiceClient.fromConnectionString(connectionString, pipeline);
  if (!(serviceClient.credential instanceof StorageSharedKeyCredential)) {
    // Upload URLs are account-key SAS; a connection string holding only a SAS cannot sign them.
    throw new StorageConfigError('AZURE_STORAGE_CONNECTION_STRING must contain AccountName and AccountKey.');
  }
  return { serviceClient, sign: accountKeySigner(serviceClient.credential), emulator: null };
}

function connectToAccount(account: Extract<StorageAccount, { accountName: string }>, pipeline: StoragePipelineOptions): Connection {
  const endpoint = account.endpoint ?? `https://${account.accountName}.blob.core.windows.net`;
  if (account.accountKey) {
    const credential = new StorageSharedKeyCredential(account.accountName, account.accountKey);
    return { serviceClient: new BlobServiceClient(endpoint, credential, pipeline), sign: accountKeySigner(credential), emulator: null };
  }
  // Managed identity in Azure, developer credentials locally; the identity needs the
  // Storage Blob Data Contributor role, which also lets it ask for user delegation keys.
  const serviceClient = new BlobServiceClient(endpoint, new DefaultAzureCredential(), pipeline);
  return { serviceClient, sign: userDelegationSigner(serviceClient, account.accountName), emulator: null };
}
