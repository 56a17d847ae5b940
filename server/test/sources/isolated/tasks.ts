// Tasks for the isolated-run tests, run in the child process as a parser would be.
import { isolatedChildrenOf } from '../../support/isolated-children.js';

/** Fills memory outside the heap (as inflated buffers do) until stopped. */
export function fillBuffers(mb: number): number {
  const held: Buffer[] = [];
  for (let i = 0; i < mb; i++) held.push(Buffer.alloc(1024 * 1024, 1));
  return held.length;
}

/** Spins until killed. */
export function spin(): never {
  for (;;) {
    // busy
  }
}

/** How many isolated children share this one's parent, itself included. */
export function siblings(): Promise<number> {
  return isolatedChildrenOf(process.ppid);
}
