// Opens object storage: the configured Azure account, or an in-process Azurite when none is.
import { BlobServiceClient, StorageSharedKeyCredential } from '@azure/storage-blob';
import type { Logger } from '../logger.js';
import { createAzureBlobStorage } from './azure-blob-storage.js';
import { azuriteAccount, type EmbeddedAzurite, startEmbeddedAzurite } from './embedded-azurite.js';
import type { ObjectStorage } from './object-storage.js';

/** AZURE_STORAGE_CONNECTION_STRING, or an account name and key, or nothing for the embedded emulator. */
export type StorageAccount =
  | { connectionString: string }
  | { accountName: string; accountKey: string /** Default `https://<account>.blob.core.windows.net`. */; endpoint?: string }
  | null;

export interface OpenObjectStorageOptions {
  account: StorageAccount;
  container: string;
  log: Logger;
}

/** Azure's container-name rule: 3–63 lower-case letters, digits and single hyphens. */
const containerNamePattern = /^(?=.{3,63}$)[a-z0-9]+(-[a-z0-9]+)*$/;

export class StorageConfigError extends Error {
  override readonly name = 'StorageConfigError';
}

export async function openObjectStorage({ account, container, log }: OpenObjectStorageOptions): Promise<ObjectStorage> {
  if (!containerNamePattern.test(container)) {
    throw new StorageConfigError(`Container name "${container}" must be 3-63 lower-case letters, digits and single hyphens.`);
  }
  let serviceClient: BlobServiceClient;
  let credential: StorageSharedKeyCredential;
  let emulator: EmbeddedAzurite | null = null;
  if (account === null) {
    emulator = await startEmbeddedAzurite();
    credential = new StorageSharedKeyCredential(azuriteAccount.name, azuriteAccount.key);
    serviceClient = new BlobServiceClient(emulator.endpoint, credential);
    log.warn(
      { storage: 'embedded', endpoint: emulator.endpoint },
      'AZURE_STORAGE_CONNECTION_STRING is not set: using the embedded in-memory Azurite blob emulator. ALL UPLOADED FILES ARE HELD IN MEMORY AND LOST ON EXIT.',
    );
  } else if ('connectionString' in account) {
    serviceClient = BlobServiceClient.fromConnectionString(account.connectionString);
    if (!(serviceClient.credential instanceof StorageSharedKeyCredential)) {
      // Upload URLs are account-key SAS; a connection string holding only a SAS cannot sign them.
      throw new StorageConfigError('AZURE_STORAGE_CONNECTION_STRING must contain AccountName and AccountKey.');
    }
    credential = serviceClient.credential;
  } else {
    credential = new StorageSharedKeyCredential(account.accountName, account.accountKey);
    serviceClient = new BlobServiceClient(account.endpoint ?? `https://${account.accountName}.blob.core.windows.net`, credential);
  }
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
    credential,
    container: containerClient,
    embedded: emulator !== null,
    ...(emulator && { onClose: emulator.close }),
  });
}
