// Object storage for uploaded files: the port, its Azure implementation and the tenant key rules.
export type {
  ListedObject,
  ObjectStorage,
  PresignUploadOptions,
  ReadOptions,
  ReadResult,
  ReadStreamOptions,
  StoredObjectProperties,
  TenantObjectStorage,
} from './object-storage.js';
export { type OpenObjectStorageOptions, openObjectStorage, type StorageAccount, StorageConfigError } from './open-object-storage.js';
export { StorageKeyError, tenantKey, tenantListPrefix, tenantPrefix } from './tenant-key.js';
