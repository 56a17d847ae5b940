import { callerOf } from '../services/call-context.js';
import type { OperatingPoints } from '../services/engine/operating-points.js';
import type { OperationTable } from './operation.js';

export function engineOperations(points: OperatingPoints) {
  return {
    applyOperatingPoint: async (_body, ctx) => points.apply(callerOf(ctx)),
  } satisfies OperationTable;
}
