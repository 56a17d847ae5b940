// The engine runs off the main event loop, in a pool of worker threads sized from the CPU count, so
// a validation against a large source does not delay other requests. A task whose caller goes away
// (its signal aborts) is stopped: a queued one never starts, a running one's thread is replaced.
// Except a task that consults the entailment model: a thread stopped while onnxruntime scores on it
// aborts the whole process (SIGABRT from the native binding), so such a task is told instead, through
// a flag its worker reads when it starts and before the model scores, and ends there.
import { availableParallelism } from 'node:os';
import type { Mode } from '@groundcheck/contract';
import { SpanStatusCode } from '@opentelemetry/api';
import { Piscina } from 'piscina';
import type { EngineRequest, EngineValidation, FixResult, GenerateResult } from '../../engine/index.js';
import { deterministicEngine } from '../../engine/index.js';
import { instruments, observeEngineQueue, tracer } from '../../telemetry/instruments.js';

export interface EngineTask {
  mode: Mode;
  request: EngineRequest;
  /** The local entailment model to consult, for tenants that use one. */
  entailment?: { modelDir: string; weight: number };
  /** Set (to 1) when the caller has gone: a task with the model is never stopped by force. */
  cancelled?: Int32Array;
}

export interface EngineResults {
  validate: EngineValidation;
  validate_and_fix: FixResult;
  generate: GenerateResult;
}

// Under tsx (tests) the worker is the .ts source; in the build, the compiled .js beside this file.
const workerFile = new URL(import.meta.url.endsWith('.ts') ? './engine-worker.ts' : './engine-worker.js', import.meta.url);

export class EnginePool {
  readonly identity: { method: string; version: string } = { ...deterministicEngine };
  private readonly pool: Piscina;

  constructor(threads = Math.max(1, availableParallelism())) {
    this.pool = new Piscina({ filename: workerFile.href, minThreads: 1, maxThreads: threads, idleTimeout: 60_000 });
    observeEngineQueue(() => this.pool.queueSize);
  }

  /** Runs the engine on a worker thread, as a span of the request, and measures it (queue wait included). */
  run<M extends Mode>(
    mode: M,
    request: EngineRequest,
    signal?: AbortSignal,
    entailment?: EngineTask['entailment'],
  ): Promise<EngineResults[M]> {
    return tracer().startActiveSpan(`engine ${mode}`, async (span) => {
      const started = performance.now();
      try {
        // `generate` never consults the model, so its thread may be stopped like any other.
        if (!entailment || mode === 'generate') return await this.pool.run({ mode, request } satisfies EngineTask, { signal });
        const cancelled = new Int32Array(new SharedArrayBuffer(4));
        const cancel = () => Atomics.store(cancelled, 0, 1);
        signal?.addEventListener('abort', cancel, { once: true });
        try {
          return await this.pool.run({ mode, request, entailment, cancelled } satisfies EngineTask);
        } catch (error) {
          // The worker ended the task because the caller went away: say so as the pool does.
          signal?.throwIfAborted();
          throw error;
        } finally {
          signal?.removeEventListener('abort', cancel);
        }
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).name });
        throw error;
      } finally {
        span.end();
        instruments().engineDuration.record((performance.now() - started) / 1000, { 'groundcheck.mode': mode });
      }
    });
  }

  close(): Promise<void> {
    return this.pool.close({ force: true });
  }
}
