// Readiness (GET /readyz): every dependency the server cannot serve without answers its check.

export type ReadinessCheck = () => Promise<boolean>;

export interface Readiness {
  ready: boolean;
  checks: Record<string, 'ok' | 'unavailable'>;
}

export class ReadinessService {
  constructor(private readonly checks: Record<string, ReadinessCheck>) {}

  async check(): Promise<Readiness> {
    const results = await Promise.all(
      Object.entries(this.checks).map(async ([name, check]) => [name, (await check()) ? 'ok' : 'unavailable'] as const),
    );
    return { ready: results.every(([, result]) => result === 'ok'), checks: Object.fromEntries(results) };
  }
}
