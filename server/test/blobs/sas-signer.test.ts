// Upload URLs signed with a user delegation key, as the server signs them when it signs in to the
// storage account with its Azure identity: the key is asked for once, reused, and renewed before it
// would expire under a URL it signs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BlobSASPermissions, type UserDelegationKey } from '@azure/storage-blob';
import { userDelegationSigner } from '../../src/blobs/sas-signer.js';

function service() {
  const asked: { startsOn: Date; expiresOn: Date }[] = [];
  return {
    asked,
    async getUserDelegationKey(startsOn: Date, expiresOn: Date): Promise<UserDelegationKey> {
      asked.push({ startsOn, expiresOn });
      return {
        signedObjectId: '8b5e0a3c-0000-4000-8000-000000000001',
        signedTenantId: '8b5e0a3c-0000-4000-8000-000000000002',
        signedStartsOn: startsOn,
        signedExpiresOn: expiresOn,
        signedService: 'b',
        signedVersion: '2025-01-05',
        value: Buffer.from(`delegation-${asked.length}`).toString('base64'),
      };
    },
  };
}

const values = (now: Date, minutes = 15) => ({
  containerName: 'groundcheck',
  blobName: 'tenants/harbour/sources/file',
  permissions: BlobSASPermissions.parse('c'),
  expiresOn: new Date(now.getTime() + minutes * 60_000),
});

describe('userDelegationSigner', () => {
  it('signs with a user delegation key: create only, and the key names the identity', async () => {
    const now = new Date('2026-06-01T09:00:00Z');
    const sign = userDelegationSigner(service(), 'harbourstore');
    const query = new URLSearchParams(await sign(values(now), now));
    assert.equal(query.get('sp'), 'c');
    assert.equal(query.get('skoid'), '8b5e0a3c-0000-4000-8000-000000000001');
    assert.equal(query.get('sktid'), '8b5e0a3c-0000-4000-8000-000000000002');
    assert.ok(query.get('sig'));
  });

  it('asks for the key once, and again only when a URL would outlive it', async () => {
    const storage = service();
    const sign = userDelegationSigner(storage, 'harbourstore');
    const now = new Date('2026-06-01T09:00:00Z');
    await sign(values(now), now);
    await sign(values(now), new Date(now.getTime() + 60_000));
    assert.equal(storage.asked.length, 1);
    const later = new Date(now.getTime() + 23 * 60 * 60_000);
    await sign(values(later), later);
    assert.equal(storage.asked.length, 2, 'renewed an hour before it expires');
    assert.ok(storage.asked[1]!.expiresOn.getTime() - later.getTime() >= 23 * 60 * 60_000);
  });

  it('asks again after the service refused', async () => {
    let fail = true;
    const storage = service();
    const sign = userDelegationSigner(
      {
        getUserDelegationKey: (startsOn: Date, expiresOn: Date) => {
          if (fail) return Promise.reject(new Error('403 AuthorizationPermissionMismatch'));
          return storage.getUserDelegationKey(startsOn, expiresOn);
        },
      },
      'harbourstore',
    );
    const now = new Date('2026-06-01T09:00:00Z');
    await assert.rejects(sign(values(now), now), /AuthorizationPermissionMismatch/);
    fail = false;
    assert.ok(await sign(values(now), now));
  });
});
