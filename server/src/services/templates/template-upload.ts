// Completing a template's upload. The client PUTs the file straight to object storage, so the
// server learns of it only when it looks: every get, list and scan of a template still
// `awaiting_upload` looks for its blob and, when it is there, checks it (size, type by leading
// bytes, SHA-256 from the bytes) before the template becomes `uploaded`. A blob that fails is
// deleted and the template `rejected`; no blob long after the URL expired is `upload_expired`.

import type { TenantObjectStorage } from '../../blobs/object-storage.js';
import type { TemplateRecord } from '../../cosmos/template-store.js';
import { checkUploadedObject } from '../sources/upload-check.js';

/** The contract's limit for a template file (decision 74: 25 MiB). */
export const templateMaxBytes = 26_214_400;

/**
 * How long after `upload_expires_at` a missing file still counts as "on its way": storage checks
 * the URL when the PUT starts, so a large upload begun just in time finishes later, and clocks differ.
 */
export const uploadGraceMs = 5 * 60_000;

export const templateKey = (templateId: string) => `templates/${templateId}`;

/**
 * The record the template should have now, or null when nothing changed (not uploaded yet, or the
 * blob is being overwritten while it is read). Deletes a rejected blob.
 */
export async function settleUpload(record: TemplateRecord, storage: TenantObjectStorage, now: Date): Promise<TemplateRecord | null> {
  if (record.status !== 'awaiting_upload') return null;
  const key = templateKey(record.id);
  const check = await checkUploadedObject({
    storage,
    key,
    declaredType: record.file.content_type,
    declaredSizeBytes: record.file.declared_size_bytes,
    maxSizeBytes: templateMaxBytes,
  });
  const updated_at = now.toISOString();
  if (check.ok) {
    return {
      ...record,
      status: 'uploaded',
      file: { ...record.file, size_bytes: check.sizeBytes, sha256: check.sha256, etag: check.etag },
      updated_at,
    };
  }
  if (check.reason === 'changed') return null;
  if (check.reason === 'not_uploaded') {
    const expired = now.getTime() > Date.parse(record.upload_expires_at) + uploadGraceMs;
    return expired ? { ...record, status: 'rejected', rejection_reason: 'upload_expired', updated_at } : null;
  }
  // The file is not what was declared: it is never kept, so nothing can read it later.
  await storage.delete(key);
  return { ...record, status: 'rejected', rejection_reason: check.reason, updated_at };
}
