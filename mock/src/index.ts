// @groundcheck/mock: the Groundcheck API as a mock server for integration tests, from the
// openapi.yaml bundled into this package. `startMock()` resolves when the mock answers.
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { loadContract } from './contract.js';
import { createGuard } from './guard.js';
import { startPrism } from './prism.js';

export interface MockOptions {
  /** Port to listen on; 0 picks a free one. Default 4010. */
  port?: number;
  /** Address to listen on. Default 127.0.0.1. */
  host?: string;
  /** Generate responses from the schemas instead of returning the contract's examples. */
  dynamic?: boolean;
  /** Seed for `dynamic`, so that generated data repeats between runs. */
  seed?: string;
  /** Where Prism's request log goes; by default it is discarded (and shown if Prism fails to start). */
  log?: { write(text: string): unknown };
}

export interface RunningMock {
  /** The base URL, for example `http://127.0.0.1:4010`. */
  url: string;
  /** Stops the mock and its Prism process. */
  close(): Promise<void>;
}

/** The contract this package was built with. */
export const specPath = fileURLToPath(new URL('../dist/openapi.yaml', import.meta.url));

export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const contract = loadContract(specPath);
  const dynamic = options.dynamic ?? false;
  const prism = await startPrism({ specPath, dynamic, seed: options.seed, log: options.log });
  const guard = createGuard({ contract, prism, dynamic });
  try {
    await new Promise<void>((resolve, reject) => {
      guard.once('error', reject);
      guard.listen(options.port ?? 4010, options.host ?? '127.0.0.1', resolve);
    });
  } catch (error) {
    await prism.stop();
    throw error;
  }
  const { address, port } = guard.address() as AddressInfo;
  return {
    url: `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
    async close() {
      await new Promise<void>((resolve) => {
        guard.close(() => resolve());
        guard.closeAllConnections();
      });
      await prism.stop();
    },
  };
}
