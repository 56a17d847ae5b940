// API keys: `gck_<8-character public id>_<32-character secret>`; the server keeps only a SHA-256.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { sha256Hex } from '../../lib/hash.js';
import type { ApiKeyEntry, Tenant } from '../../tenants/tenant.js';

const keyPattern = /^gck_([A-Za-z0-9]{8})_[A-Za-z0-9]{32}$/;
const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** The tenant's key entry matching `apiKey`, compared in constant time; null when none does. */
export function findApiKey(tenant: Tenant, apiKey: string): ApiKeyEntry | null {
  const id = keyPattern.exec(apiKey)?.[1];
  const entry = id ? tenant.apiKeys.find((key) => key.id === id) : undefined;
  // Hash and compare even without a candidate, so a wrong id takes as long as a wrong secret.
  const presented = Buffer.from(sha256Hex(apiKey), 'hex');
  const stored = Buffer.from(entry?.sha256 ?? '0'.repeat(64), 'hex');
  return timingSafeEqual(presented, stored) && entry ? entry : null;
}

export function generateApiKey(): { key: string; id: string; sha256: string } {
  const pick = (length: number) => Array.from(randomBytes(length), (b) => alphabet[b % alphabet.length]).join('');
  const id = pick(8);
  const key = `gck_${id}_${pick(32)}`;
  return { key, id, sha256: sha256Hex(key) };
}
