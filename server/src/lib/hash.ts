import { createHash } from 'node:crypto';

/** The SHA-256 of a string's UTF-8 bytes, as 64 lowercase hex digits. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
