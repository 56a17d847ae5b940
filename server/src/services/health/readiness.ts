// Readiness (GET /readyz): every dependency the server cannot serve without answers its check.

export type ReadinessCheck = () => Promise<boolean>;

export interface Readiness {
  ready: boolean;
  shuttingDown: boolean;
  checks: Record<string, 'ok' | 'unavailable'>;
}

export class ReadinessService {
  private stopping = false;

  constructor(private readonly checks: Record<string, ReadinessCheck>) {}

  /** From now on the process is not ready: a load balancer stops sending it work while it drains. */
  stop(): void {
    this.stopping = true;
  }

  async check(): Promise<Readiness> {
    const results = await Promise.all(
      Object.entries(this.checks).map(async ([name, check]) => [name, (await check()) ? 'ok' : 'unavailable'] as const),
    );
    return {
      ready: !this.stopping && results.every(([, result]) => result === 'ok'),
      shuttingDown: this.stopping,
      checks: Object.fromEntries(results),
    };
  }
}
