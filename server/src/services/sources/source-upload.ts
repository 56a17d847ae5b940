// Completing a source file's upload. The client PUTs straight to object storage, so the server
// learns of the file only when it looks: every list and every retrieval checks the files still
// `awaiting_upload` (size, type by leading bytes, SHA-256 from the bytes) before they are `ready`.
// A blob that fails is deleted and the file `rejected`; an upload never made is dropped from the
// inventory once its URL has expired (with a grace period).
import type { TenantObjectStorage } from '../../blobs/object-storage.js';
import type { SourceFileRecord } from '../../cosmos/source-group-store.js';
import { checkUploadedObject } from './upload-check.js';

/** Decision 74: source files up to 50 MiB. */
export const sourceMaxBytes = 52_428_800;

/** Storage checks the SAS when a PUT starts, so a large upload begun in time ends later; clocks differ too. */
export const uploadGraceMs = 5 * 60_000;

export const sourceFileKey = (groupId: string, fileId: string) => `sources/${groupId}/${fileId}`;
export const sourceGroupPrefix = (groupId: string) => `sources/${groupId}/`;

export type SettledFile = { change: 'none' } | { change: 'update'; file: SourceFileRecord } | { change: 'remove' };

/** What should become of one file now; deletes a blob that failed its checks. */
export async function settleFile(groupId: string, file: SourceFileRecord, storage: TenantObjectStorage, now: Date): Promise<SettledFile> {
  if (file.status !== 'awaiting_upload') return { change: 'none' };
  const key = sourceFileKey(groupId, file.file_id);
  const check = await checkUploadedObject({
    storage,
    key,
    declaredType: file.content_type,
    declaredSizeBytes: file.declared_size_bytes,
    maxSizeBytes: sourceMaxBytes,
  });
  if (check.ok) {
    return { change: 'update', file: { ...file, status: 'ready', size_bytes: check.sizeBytes, sha256: check.sha256, etag: check.etag } };
  }
  if (check.reason === 'changed') return { change: 'none' };
  if (check.reason === 'not_uploaded') {
    const expired = now.getTime() > Date.parse(file.upload_expires_at) + uploadGraceMs;
    return expired ? { change: 'remove' } : { change: 'none' };
  }
  // Bytes that are not what was declared are never kept, so nothing can read them later.
  await storage.delete(key);
  return { change: 'update', file: { ...file, status: 'rejected', rejection_reason: check.reason } };
}
