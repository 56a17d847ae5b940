// The storage port: the rest of the server stores files through these interfaces and never sees the SDK.
import type { Readable } from 'node:stream';
import type { PresignedUpload } from '@groundcheck/contract';

/** What an upload URL response carries: `upload_url`, `method: PUT`, `headers`, `expires_at`. */

export interface PresignUploadOptions {
  contentType: string;
  /** The current time, from the caller's clock. */
  now: Date;
  /** How long the URL stays valid; default 15 minutes. */
  expiresInMs?: number;
  /**
   * Whether the URL may write the object again while it is valid (a template's new version, scanned
   * again). Otherwise it creates the object once, and a checked file cannot be replaced through it.
   */
  replaceable?: boolean;
}

export interface StoredObjectProperties {
  sizeBytes: number;
  contentType: string | null;
  /** Changes on every write; pass it to `read` to be sure the bytes are the ones that were checked. */
  etag: string;
  lastModified: Date;
}

export interface ListedObject {
  /** Relative to the tenant, as the caller named it. */
  key: string;
  sizeBytes: number;
  lastModified: Date;
}

export interface ReadOptions {
  /** The read fails with `too_large` rather than buffering more than this. */
  maxBytes: number;
  /** Fail with `changed` when the object is no longer this version. */
  ifMatch?: string;
}

export type ReadResult =
  | { ok: true; bytes: Buffer; properties: StoredObjectProperties }
  | { ok: false; reason: 'not_found' | 'changed' }
  | { ok: false; reason: 'too_large'; sizeBytes: number };

export interface ReadStreamOptions {
  offset?: number;
  /** Bytes from `offset`; the rest of the object when omitted. */
  count?: number;
  ifMatch?: string;
}

export interface WriteOptions {
  contentType: string;
}

/**
 * One tenant's files. Keys are relative (`sources/grp_…/fil_…`); the tenant prefix is added here, so
 * no key can reach another tenant's objects.
 */
export interface TenantObjectStorage {
  readonly customerId: string;
  /** A short-lived URL that can create or overwrite this one object and do nothing else. */
  presignUpload(key: string, options: PresignUploadOptions): Promise<PresignedUpload>;
  /** Null when the object does not exist. */
  getProperties(key: string): Promise<StoredObjectProperties | null>;
  read(key: string, options: ReadOptions): Promise<ReadResult>;
  /** Null when the object does not exist (or is no longer `ifMatch`). */
  readStream(key: string, options?: ReadStreamOptions): Promise<Readable | null>;
  /** Creates or replaces an object the server itself produces (derived data, never a customer upload). */
  write(key: string, bytes: Uint8Array, options: WriteOptions): Promise<void>;
  /** True when an object was deleted, false when there was none. */
  delete(key: string): Promise<boolean>;
  /** Objects whose key starts with `prefix` (a whole path such as `sources/grp_…/`, or empty for all). */
  list(prefix: string): AsyncIterable<ListedObject>;
  /** Deletes every object under `prefix` and returns how many there were. */
  deletePrefix(prefix: string): Promise<number>;
}

export interface ObjectStorage {
  forTenant(customerId: string): TenantObjectStorage;
  /** True when the server started its own in-memory Azurite because no account was configured. */
  readonly embedded: boolean;
  /**
   * The origin that upload URLs point to (`https://<account>.blob.core.windows.net`, or the
   * emulator's loopback address): the console's pages PUT files there, so its policy must allow it.
   */
  readonly browserOrigin: string;
  /** For /readyz: answers within about two seconds. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
