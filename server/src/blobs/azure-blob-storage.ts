// The storage port on Azure Blob Storage (or Azurite, which speaks the same protocol). Every call is
// bounded by the store timeout, and a call the pipeline's retries could not complete (an account that
// is stalled, unreachable, failing or throttling) throws the 503 problem, as Cosmos DB's do.
import type { Readable } from 'node:stream';
import { BlobSASPermissions, type ContainerClient, RestError, SASProtocol } from '@azure/storage-blob';
import { storeStalled, UnavailableError } from '../errors.js';
import { withDeadline } from '../lib/deadline.js';
import type { ListedObject, ObjectStorage, ReadResult, StoredObjectProperties, TenantObjectStorage } from './object-storage.js';
import type { SasSigner } from './sas-signer.js';
import { tenantKey, tenantListPrefix, tenantPrefix } from './tenant-key.js';

const defaultUploadTtlMs = 15 * 60 * 1000;
const maxUploadTtlMs = 60 * 60 * 1000;

interface AzureBlobStorageOptions {
  /** Signs upload URLs: with the account key or a user delegation key (sas-signer.ts). */
  sign: SasSigner;
  container: ContainerClient;
  embedded: boolean;
  /** Each call's bound, the pipeline's retries included (STORE_TIMEOUT_MS). */
  timeoutMs: number;
  onClose?: () => Promise<void>;
}

function statusOf(error: unknown): number | undefined {
  return error instanceof RestError ? error.statusCode : undefined;
}

/** A 503 problem for a failure of the account rather than of the request (no answer, 5xx, 429), else null. */
function storageUnavailable(error: unknown): UnavailableError | null {
  const status = statusOf(error);
  const outage =
    error instanceof RestError ? status === undefined || status >= 500 || status === 429 : (error as Error)?.name === 'AbortError';
  if (!outage) return null;
  return new UnavailableError('service_unavailable', 'The file store is busy or unavailable; retry in 1 seconds.', 1);
}

/** The storage with each call bounded by `timeoutMs` and its outages as 503 problems. */
function bounded(storage: TenantObjectStorage, timeoutMs: number): TenantObjectStorage {
  const guard =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    (...args: A) =>
      withDeadline(call(...args), timeoutMs, () => storeStalled(timeoutMs)).catch((error: unknown) => {
        throw storageUnavailable(error) ?? error;
      });
  return {
    ...storage,
    // A user-delegation key is asked of the account: signing waits on it too.
    presignUpload: guard(storage.presignUpload),
    getProperties: guard(storage.getProperties),
    read: guard(storage.read),
    readStream: guard(storage.readStream),
    write: guard(storage.write),
    delete: guard(storage.delete),
    deletePrefix: guard(storage.deletePrefix),
  };
}

function propertiesOf(response: {
  contentLength?: number;
  contentType?: string;
  etag?: string;
  lastModified?: Date;
}): StoredObjectProperties {
  return {
    sizeBytes: response.contentLength ?? 0,
    contentType: response.contentType ?? null,
    etag: response.etag ?? '',
    lastModified: response.lastModified ?? new Date(0),
  };
}

/** A download's refusal as a read result; any other failure is thrown. */
function refusedRead(error: unknown): ReadResult {
  if (statusOf(error) === 404) return { ok: false, reason: 'not_found' };
  if (statusOf(error) === 412) return { ok: false, reason: 'changed' };
  throw error;
}

/** A downloaded object's bytes, unless there are more than `maxBytes`. */
async function readWithin(stream: Readable, properties: StoredObjectProperties, maxBytes: number): Promise<ReadResult> {
  if (properties.sizeBytes > maxBytes) {
    stream.destroy();
    return { ok: false, reason: 'too_large', sizeBytes: properties.sizeBytes };
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    total += (chunk as Buffer).length;
    // The declared length was checked; this guards against a service that sends more.
    if (total > maxBytes) {
      stream.destroy();
      return { ok: false, reason: 'too_large', sizeBytes: total };
    }
    chunks.push(chunk as Buffer);
  }
  return { ok: true, bytes: Buffer.concat(chunks), properties };
}

export function createAzureBlobStorage({ sign, container, embedded, timeoutMs, onClose }: AzureBlobStorageOptions): ObjectStorage {
  const secureEndpoint = container.url.startsWith('https:');

  function forTenant(customerId: string): TenantObjectStorage {
    tenantPrefix(customerId); // refuse a malformed customer id now, not on first use
    const blob = (key: string) => container.getBlockBlobClient(tenantKey(customerId, key));

    function list(prefix: string): AsyncIterable<ListedObject> {
      const fullPrefix = tenantListPrefix(customerId, prefix); // throws now, not on first iteration
      const strip = tenantPrefix(customerId).length;
      return (async function* () {
        for await (const item of container.listBlobsFlat({ prefix: fullPrefix })) {
          yield { key: item.name.slice(strip), sizeBytes: item.properties.contentLength ?? 0, lastModified: item.properties.lastModified };
        }
      })();
    }

    return bounded(
      {
        customerId,

        async presignUpload(key, { contentType, now, expiresInMs = defaultUploadTtlMs, replaceable = false }) {
          const client = blob(key);
          // SAS times have one-second precision; report the instant the service will enforce.
          const expiresOn = new Date(Math.floor((now.getTime() + Math.min(expiresInMs, maxUploadTtlMs)) / 1000) * 1000);
          const sas = await sign(
            {
              containerName: container.containerName,
              blobName: client.name,
              // Create this one blob (and write it again only when replaceable): no read, delete, list or tag rights.
              permissions: BlobSASPermissions.parse(replaceable ? 'cw' : 'c'),
              expiresOn,
              protocol: secureEndpoint ? SASProtocol.Https : SASProtocol.HttpsAndHttp,
            },
            now,
          );
          return {
            upload_url: `${client.url}?${sas}`,
            method: 'PUT',
            headers: { 'x-ms-blob-type': 'BlockBlob', 'content-type': contentType },
            expires_at: expiresOn.toISOString(),
          };
        },

        async getProperties(key) {
          try {
            return propertiesOf(await blob(key).getProperties());
          } catch (error) {
            if (statusOf(error) === 404) return null;
            throw error;
          }
        },

        async read(key, { maxBytes, ifMatch }): Promise<ReadResult> {
          let response: Awaited<ReturnType<ReturnType<typeof blob>['download']>>;
          try {
            response = await blob(key).download(0, undefined, ifMatch ? { conditions: { ifMatch } } : {});
          } catch (error) {
            return refusedRead(error);
          }
          return readWithin(response.readableStreamBody as Readable, propertiesOf(response), maxBytes);
        },

        async readStream(key, { offset = 0, count, ifMatch } = {}) {
          try {
            const response = await blob(key).download(offset, count, ifMatch ? { conditions: { ifMatch } } : {});
            return response.readableStreamBody as Readable;
          } catch (error) {
            if (statusOf(error) === 404 || statusOf(error) === 412 || statusOf(error) === 416) return null;
            throw error;
          }
        },

        async write(key, bytes, { contentType }) {
          await blob(key).uploadData(bytes, { blobHTTPHeaders: { blobContentType: contentType } });
        },

        async delete(key) {
          return (await blob(key).deleteIfExists({ deleteSnapshots: 'include' })).succeeded;
        },

        list,

        async deletePrefix(prefix) {
          let deleted = 0;
          for await (const item of list(prefix)) {
            if ((await blob(item.key).deleteIfExists({ deleteSnapshots: 'include' })).succeeded) deleted++;
          }
          return deleted;
        },
      },
      timeoutMs,
    );
  }

  return {
    forTenant,
    embedded,
    browserOrigin: new URL(container.url).origin,
    async ping() {
      try {
        // A readiness probe must answer quickly even when the account does not.
        await container.getProperties({ abortSignal: AbortSignal.timeout(2000) });
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await onClose?.();
    },
  };
}
