// The checks a presigned upload must pass before its file is `ready`: the server reads the stored
// bytes itself, so size, type and SHA-256 are what is stored, not what the client said.
import { createHash } from 'node:crypto';
import type { TenantObjectStorage } from '../../blobs/object-storage.js';
import { sniffLength, sniffMatches } from './content-sniff.js';

export interface UploadCheckInput {
  storage: TenantObjectStorage;
  key: string;
  /** The content type registered with the upload URL (the stored blob's own header is the client's word). */
  declaredType: string;
  /** The size registered with the upload URL, when the client gave one. */
  declaredSizeBytes?: number | null;
  /** The contract's limit for this kind of file. */
  maxSizeBytes: number;
}

export type UploadRejection = 'not_uploaded' | 'empty' | 'too_large' | 'size_mismatch' | 'content_mismatch' | 'changed';

export type UploadCheckResult =
  | { ok: true; sizeBytes: number; sha256: string; etag: string }
  | { ok: false; reason: UploadRejection; detail: string };

/**
 * Reads the object once, streaming: size limits first from its properties, then SHA-256 and the
 * leading bytes from the content. The caller deletes a rejected object and reports the reason; a
 * later read should pass `etag` as `ifMatch`, so bytes written after the check are never used.
 */
export async function checkUploadedObject({
  storage,
  key,
  declaredType,
  declaredSizeBytes,
  maxSizeBytes,
}: UploadCheckInput): Promise<UploadCheckResult> {
  const properties = await storage.getProperties(key);
  if (!properties) return { ok: false, reason: 'not_uploaded', detail: 'No file has been uploaded.' };
  const { sizeBytes, etag } = properties;
  if (sizeBytes === 0) return { ok: false, reason: 'empty', detail: 'The uploaded file is empty.' };
  if (sizeBytes > maxSizeBytes)
    return { ok: false, reason: 'too_large', detail: `The file has ${sizeBytes} bytes; the limit is ${maxSizeBytes}.` };
  if (declaredSizeBytes != null && declaredSizeBytes !== sizeBytes) {
    return { ok: false, reason: 'size_mismatch', detail: `The file has ${sizeBytes} bytes, not the ${declaredSizeBytes} declared.` };
  }
  const stream = await storage.readStream(key, { ifMatch: etag });
  if (!stream) return { ok: false, reason: 'changed', detail: 'The file changed while it was being checked.' };
  const hash = createHash('sha256');
  const head: Buffer[] = [];
  let headLength = 0;
  let total = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxSizeBytes) {
      stream.destroy();
      return { ok: false, reason: 'too_large', detail: `The file exceeds the limit of ${maxSizeBytes} bytes.` };
    }
    hash.update(chunk);
    if (headLength < sniffLength) {
      head.push(chunk.subarray(0, sniffLength - headLength));
      headLength += Math.min(chunk.length, sniffLength - headLength);
    }
  }
  if (!sniffMatches(declaredType, Buffer.concat(head))) {
    return { ok: false, reason: 'content_mismatch', detail: `The file's content does not match ${declaredType}.` };
  }
  return { ok: true, sizeBytes: total, sha256: hash.digest('hex'), etag };
}

/** Lower-case hex SHA-256, the contract's `Sha256`. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
