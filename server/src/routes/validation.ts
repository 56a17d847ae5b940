import { callerOf } from '../services/call-context.js';
import type { ValidationService } from '../services/validation/validation-service.js';
import type { OperationTable } from './operation.js';

export function validationOperations(validation: ValidationService) {
  return {
    validate: async (body, ctx) => validation.validate(callerOf(ctx), body),
  } satisfies OperationTable;
}
