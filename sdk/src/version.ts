// The SDK's version, sent in every request's User-Agent; sdk/test/requests.test.ts keeps it equal to package.json's.
export const sdkVersion = '0.1.0';

/** `groundcheck-sdk-js/<version>`, then the runtime when there is one to name. */
export function userAgent(): string {
  const node = typeof process !== 'undefined' ? process.versions?.node : undefined;
  return `groundcheck-sdk-js/${sdkVersion}${node ? ` node/${node}` : ''}`;
}
