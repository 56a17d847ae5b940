// Object names: every object lives under `tenants/<customer_id>/`, and a key can only go down from there.

/** The contract's `CustomerId` pattern. */
const customerIdPattern = /^[a-z0-9][a-z0-9_-]{1,63}$/;
/**
 * One path segment: ids, hashes and extensions need nothing more. No spaces, percent signs,
 * backslashes or control characters, so a key means the same to every layer that reads it.
 */
const segmentPattern = /^[A-Za-z0-9._=-]{1,200}$/;
/** Azure's limit on a blob name is 1024 characters. */
const maxNameLength = 1024;

export class StorageKeyError extends Error {
  override readonly name = 'StorageKeyError';
}

function checkSegments(value: string, what: string): void {
  for (const segment of value.split('/')) {
    if (!segmentPattern.test(segment) || segment === '.' || segment === '..') {
      throw new StorageKeyError(`${what} ${JSON.stringify(value)} has an invalid segment ${JSON.stringify(segment)}.`);
    }
  }
}

export function tenantPrefix(customerId: string): string {
  if (!customerIdPattern.test(customerId)) throw new StorageKeyError(`Invalid customer id ${JSON.stringify(customerId)}.`);
  return `tenants/${customerId}/`;
}

/** The full object name for a tenant's relative key, refusing `..`, `/x`, `a//b`, control characters. */
export function tenantKey(customerId: string, key: string): string {
  checkSegments(key, 'Key');
  const name = tenantPrefix(customerId) + key;
  if (name.length > maxNameLength) throw new StorageKeyError('Key too long.');
  return name;
}

/** The full name prefix for listing: empty (the whole tenant), `a/b/` or a partial last segment `a/b`. */
export function tenantListPrefix(customerId: string, prefix: string): string {
  if (prefix === '') return tenantPrefix(customerId);
  checkSegments(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix, 'Prefix');
  return tenantPrefix(customerId) + prefix;
}
