// The origins other than this server that the console's pages may call (its CSP's connect-src).
import type { Container } from '../../container.js';

export function consoleConnectOrigins(container: Container): string[] {
  // Uploads go from the browser straight to the storage account, through the URLs the server signs.
  return [container.storage.browserOrigin];
}
