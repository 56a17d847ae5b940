// At most `limit` tasks in flight per tenant, so that one tenant's burst cannot take the whole model quota. The
// waiting line is bounded: a flood is turned away at once rather than piling up until every deadline has passed.

export class QueueFullError extends Error {
  constructor() {
    super('Too many tasks are waiting for this tenant');
    this.name = 'QueueFullError';
  }
}

interface Lane {
  active: number;
  waiting: (() => void)[];
}

export interface TenantSemaphore {
  /**
   * Runs `task` once the tenant has a free slot. Rejects with `QueueFullError` when the line is full, or with the
   * signal's reason when it aborts before the task starts; a started task is the caller's to stop.
   */
  run<T>(tenantId: string, signal: AbortSignal | undefined, task: () => Promise<T>): Promise<T>;
}

export function createTenantSemaphore(limit: number, maxWaiting: number): TenantSemaphore {
  const lanes = new Map<string, Lane>();

  const wait = (lane: Lane, signal: AbortSignal | undefined) =>
    new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        lane.waiting.splice(lane.waiting.indexOf(start), 1);
        reject(signal!.reason);
      };
      const start = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      lane.waiting.push(start);
      signal?.addEventListener('abort', onAbort, { once: true });
    });

  // A finishing task hands its slot straight to the next in line, so `active` only falls when nobody waits.
  const release = (tenantId: string, lane: Lane) => {
    const next = lane.waiting.shift();
    if (next) return next();
    lane.active--;
    if (lane.active === 0) lanes.delete(tenantId);
  };

  return {
    async run(tenantId, signal, task) {
      signal?.throwIfAborted();
      const lane = lanes.get(tenantId) ?? { active: 0, waiting: [] };
      lanes.set(tenantId, lane);
      if (lane.active < limit) lane.active++;
      else if (lane.waiting.length >= maxWaiting) throw new QueueFullError();
      else await wait(lane, signal);
      try {
        return await task();
      } finally {
        release(tenantId, lane);
      }
    },
  };
}
