// The port through which rate limits and the login throttle count calls in fixed time windows, shared
// by every process of a deployment; cosmos/window-count-store.ts is the adapter.

/** A counted key: the partition it lives in (the tenant, or a client address) and its name there. */
export interface WindowKey {
  partition: string;
  name: string;
}

export interface WindowCounts {
  /** Adds `by` to the key's count in the window that started at `windowStart` (ms) and returns the new count. */
  increment(key: WindowKey, windowStart: number, windowSeconds: number, by?: number): Promise<number>;
  /** The key's count in the window, 0 when nothing was counted. */
  count(key: WindowKey, windowStart: number): Promise<number>;
  /** Forgets the key's count in the window. */
  clear(key: WindowKey, windowStart: number): Promise<void>;
}
