// A bound on how long the server waits for something it does not control (a store call).

/**
 * `work`'s outcome, or the error `expired` makes when it has not settled within `timeoutMs`. The
 * work is not cancelled: its late outcome is dropped, so a caller must be able to meet a write that
 * lands after it gave up (the keyed writes of decision S95 are).
 */
export async function withDeadline<T>(work: Promise<T>, timeoutMs: number, expired: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(expired()), timeoutMs);
  });
  work.catch(() => undefined);
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
