// A loopback front for a store's emulator (Cosmos DB's, or Azurite on its port) that passes requests
// on, except those a test asks it to hold: a held request is neither answered nor passed on until the
// test lets it through or drops it. A server process behind the front can so be stopped at a chosen
// store call, without depending on timing (a process killed while its write is held, a request kept
// running, a store that stalls).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { forwardTo } from './emulator-front.js';

export interface HoldingFront {
  url: string;
  /** Holds every request `matches` accepts from now on; resolves when the first is held. */
  holdWhen(matches: (req: IncomingMessage) => boolean): Promise<void>;
  /** Passes the held requests on and stops holding. */
  letThrough(): void;
  /** Passes the requests held so far on and goes on holding the next that match. */
  passHeld(): void;
  /** Cuts the held requests' connections and stops holding. */
  drop(): void;
  close(): Promise<void>;
}

export async function startHoldingFront(target: Server | number): Promise<HoldingFront> {
  const forward = forwardTo(target);
  let matches: ((req: IncomingMessage) => boolean) | null = null;
  let onHeld: (() => void) | null = null;
  let held: [IncomingMessage, ServerResponse][] = [];
  const front = createServer((req, res) => {
    if (!matches?.(req)) return forward(req, res);
    held.push([req, res]);
    onHeld?.();
    onHeld = null;
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const stopHolding = () => {
    matches = null;
    const requests = held;
    held = [];
    return requests;
  };
  return {
    url: `http://127.0.0.1:${(front.address() as AddressInfo).port}`,
    holdWhen(predicate) {
      matches = predicate;
      return new Promise((resolve) => {
        onHeld = resolve;
      });
    },
    letThrough() {
      for (const [req, res] of stopHolding()) forward(req, res);
    },
    passHeld() {
      const requests = held;
      held = [];
      for (const [req, res] of requests) forward(req, res);
    },
    drop() {
      for (const [req] of stopHolding()) req.socket.destroy();
    },
    async close() {
      stopHolding();
      front.closeAllConnections();
      await new Promise<void>((resolve) => front.close(() => resolve()));
    },
  };
}
