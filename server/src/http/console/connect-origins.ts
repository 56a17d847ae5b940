// The origins other than this server that the console's pages may call (its CSP's connect-src).
import type { Container } from '../../container.js';

export function consoleConnectOrigins(_container: Container): string[] {
  return [];
}
