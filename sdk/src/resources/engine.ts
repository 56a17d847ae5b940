import type { OperatingPoint } from '@groundcheck/contract';
import { type RequestOptions, type Transport, unwrap } from '../request.js';
import type { WithResponse } from '../response.js';

// engine/* needs a signed-in admin's bearer token; API keys are not accepted here.

/** The engine's operating point for the tenant: the `supported_score` fitted to its own decided reviews. */
export class Engine {
  constructor(private readonly transport: Transport) {}

  /**
   * Fits the tenant's operating point on its decided reviews now and applies the suggested point, with an audit
   * event; returns the point now in force. Nothing to apply throws ConflictError (409) with `code`
   * `too_few_decisions`, `no_better_operating_point` or `calibration_off`.
   */
  async applyOperatingPoint(options?: RequestOptions): Promise<WithResponse<OperatingPoint>> {
    return unwrap(await this.transport.raw.POST('/api/v1/engine/operating-point', this.transport.init(options)));
  }
}
