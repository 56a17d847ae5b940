// A stand-in for the validate engine (a later issue): it counts its runs and answers the contract's
// ValidateResult example with a fresh validation id, so idempotency is tested through the real pipeline.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { specPath } from '../../src/contract/contract.js';
import type { ApiError } from '../../src/errors.js';
import { newId } from '../../src/lib/ids.js';
import type { Ok, Operation } from '../../src/routes/operation.js';

/** A validate request that passes the contract, shared by the idempotency tests of the server and the SDK. */
export const sampleValidateRequest = {
  mode: 'validate',
  question: 'How many days of paid leave do full-time employees get?',
  chatbot_response: 'Full-time employees get 30 days of paid leave per year.',
  inline_text: 'Full-time employees are entitled to 25 days of paid leave per calendar year.',
} as const;

export function validateResultExample(): Record<string, unknown> {
  const spec = parse(readFileSync(specPath, 'utf8')) as { components: { examples: Record<string, { value: Record<string, unknown> }> } };
  return structuredClone(spec.components.examples.ValidateResult!.value);
}

export class ValidateStub {
  /** Bodies of the runs so far, in order. */
  readonly runs: unknown[] = [];
  private gate: Promise<void> | null = null;
  private open: (() => void) | null = null;
  private failures: (ApiError | Error)[] = [];

  get count(): number {
    return this.runs.length;
  }

  /** Runs started from now on wait until `release()`. */
  hold(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }

  release(): void {
    this.open?.();
    this.gate = null;
  }

  /** The next run throws this error instead of answering. */
  failNext(error: ApiError | Error): void {
    this.failures.push(error);
  }

  readonly handler: Operation<'validate'> = async (body) => {
    this.runs.push(body);
    if (this.gate) await this.gate;
    const failure = this.failures.shift();
    if (failure) throw failure;
    return { ...validateResultExample(), validation_id: newId('val', Date.now()) } as Ok<'validate'>;
  };
}
