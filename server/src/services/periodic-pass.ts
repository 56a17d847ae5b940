// Work that completes what an interrupted request left (recoveries): one pass at start, then one
// every interval, in the background. A pass already under way is joined, never run twice at once,
// and stopping waits for it.
export abstract class PeriodicPass {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(private readonly intervalMs: number) {}

  start(): void {
    this.timer ??= setInterval(() => void this.runOnce(), this.intervalMs).unref();
    void this.runOnce();
  }

  /** One pass; a pass already under way is joined, not repeated. */
  runOnce(): Promise<void> {
    this.running ??= this.pass().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Resolves when the pass under way, if any, has finished; starts none. */
  async settled(): Promise<void> {
    await this.running;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** The work of one pass; it reports its own failures, so that the next pass runs. */
  protected abstract pass(): Promise<void>;
}
