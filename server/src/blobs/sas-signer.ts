// Signs upload URLs (SAS) for one storage account: with the account key, or, when the server signs
// in with its Azure identity, with a user delegation key the service issues to that identity. A
// delegation key is asked for once and used until an hour before it expires (it is issued for a day).
import {
  type BlobSASSignatureValues,
  generateBlobSASQueryParameters,
  type StorageSharedKeyCredential,
  type UserDelegationKey,
} from '@azure/storage-blob';

/** The query string of a SAS for these values. */
export type SasSigner = (values: BlobSASSignatureValues, now: Date) => Promise<string>;

const hourMs = 60 * 60 * 1000;
const delegationKeyLifetimeMs = 24 * hourMs;

export function accountKeySigner(credential: StorageSharedKeyCredential): SasSigner {
  return async (values) => generateBlobSASQueryParameters(values, credential).toString();
}

/** What issues user delegation keys: the storage account's BlobServiceClient. */
export interface DelegationKeySource {
  getUserDelegationKey(startsOn: Date, expiresOn: Date): Promise<UserDelegationKey>;
}

export function userDelegationSigner(service: DelegationKeySource, accountName: string): SasSigner {
  let key: Promise<UserDelegationKey> | null = null;
  let usableUntil = 0;
  return async (values, now) => {
    // The key must outlive the URL it signs.
    const needed = (values.expiresOn ?? now).getTime();
    if (!key || needed > usableUntil) {
      // Starts a little in the past, so that a service clock behind ours accepts it.
      const startsOn = new Date(now.getTime() - 5 * 60 * 1000);
      const expiresOn = new Date(now.getTime() + delegationKeyLifetimeMs);
      usableUntil = expiresOn.getTime() - hourMs;
      key = service.getUserDelegationKey(startsOn, expiresOn);
      key.catch(() => {
        key = null;
      });
    }
    return generateBlobSASQueryParameters(values, await key, accountName).toString();
  };
}
